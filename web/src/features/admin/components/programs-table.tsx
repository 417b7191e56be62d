import type { Program } from '@app/contracts';
import { Badge } from '@/components/ui/badge';
import { Spinner } from '@/components/ui/spinner';
import { NativeSelect } from '@/components/ui/native-select';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import { usePrograms, useSetProgramActive, useSetProgramVendor } from '../api/programs';
import { useVendorDirectory } from '../api/vendor-directory';

/** 'Existing Referral Programs' (spec 2): the active switch PATCHes {isActive}, then the list is read again. */
export function ProgramsTable() {
  const programs = usePrograms();
  const setActive = useSetProgramActive();
  const setVendor = useSetProgramVendor();
  const vendors = useVendorDirectory({ status: 'all' }).data ?? [];

  const link = (program: Program, vendorId: string | null) =>
    setVendor.mutate(
      { id: program.id, vendorId },
      {
        onSuccess: (saved) =>
          toast({
            title: 'Program updated',
            description: saved.vendorName
              ? `${saved.name} belongs to ${saved.vendorName}.`
              : `${saved.name} is not linked to a vendor.`,
          }),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Error',
            description: errorText(error, 'Failed to update referral program'),
          }),
      },
    );

  const toggle = (program: Program, isActive: boolean) =>
    setActive.mutate(
      { id: program.id, isActive },
      {
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Error',
            description: errorText(error, 'Failed to update referral program'),
          }),
      },
    );

  if (programs.isPending) return <Spinner label="Loading referral programs" />;
  if (programs.isError)
    return <p className="text-sm text-destructive">{errorText(programs.error, 'Failed to load referral programs')}</p>;
  if (programs.data.length === 0) return <p className="text-sm text-muted-foreground">No referral programs yet.</p>;

  return (
    <div
      className="overflow-x-auto rounded-lg border border-border"
      role="region"
      aria-label="Existing Referral Programs"
      tabIndex={0}
    >
      <table className="stack-table w-full text-sm">
        <thead className="bg-muted text-left">
          <tr>
            <th scope="col" className="p-3 font-medium">
              Program Name
            </th>
            <th scope="col" className="p-3 font-medium">
              Website
            </th>
            <th scope="col" className="p-3 font-medium">
              Vendor
            </th>
            <th scope="col" className="p-3 font-medium">
              Status
            </th>
            <th scope="col" className="p-3 font-medium">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {programs.data.map((program) => {
            const pending = setActive.isPending && setActive.variables?.id === program.id;
            return (
              <tr key={program.id} className="border-t border-border">
                <td className="p-3 font-medium" data-label="Program Name">
                  {program.name}
                </td>
                <td className="p-3" data-label="Website">
                  <a
                    href={program.website}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="text-primary underline-offset-4 hover:underline"
                  >
                    {program.website}
                  </a>
                </td>
                <td className="p-3 sm:min-w-48" data-label="Vendor">
                  <NativeSelect
                    aria-label={`Vendor of ${program.name}`}
                    value={program.vendorId ?? ''}
                    disabled={setVendor.isPending && setVendor.variables?.id === program.id}
                    onChange={(event) => link(program, event.target.value || null)}
                  >
                    <option value="">Not linked</option>
                    {program.vendorId && !vendors.some((v) => v.id === program.vendorId) ? (
                      <option value={program.vendorId}>{program.vendorName ?? 'Linked vendor'}</option>
                    ) : null}
                    {vendors.map((vendor) => (
                      <option key={vendor.id} value={vendor.id}>
                        {vendor.name}
                      </option>
                    ))}
                  </NativeSelect>
                </td>
                <td className="p-3" data-label="Status">
                  <Badge variant={program.isActive ? 'default' : 'secondary'}>
                    {program.isActive ? 'Active' : 'Inactive'}
                  </Badge>
                </td>
                <td className="p-3" data-label="Actions">
                  <Switch
                    aria-label={`Active: ${program.name}`}
                    checked={pending ? setActive.variables.isActive : program.isActive}
                    disabled={pending}
                    onCheckedChange={(checked) => toggle(program, checked)}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
