import type { Program } from '@app/contracts';
import { Badge } from '@/components/ui/badge';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import { usePrograms, useSetProgramActive } from '../api/programs';

/** 'Existing Referral Programs' (spec 2): the active switch PATCHes {isActive}, then the list is read again. */
export function ProgramsTable() {
  const programs = usePrograms();
  const setActive = useSetProgramActive();

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
      <table className="w-full text-sm">
        <thead className="bg-muted text-left">
          <tr>
            <th scope="col" className="p-3 font-medium">
              Program Name
            </th>
            <th scope="col" className="p-3 font-medium">
              Website
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
                <td className="p-3 font-medium">{program.name}</td>
                <td className="p-3">
                  <a
                    href={program.website}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="text-primary underline-offset-4 hover:underline"
                  >
                    {program.website}
                  </a>
                </td>
                <td className="p-3">
                  <Badge variant={program.isActive ? 'default' : 'secondary'}>
                    {program.isActive ? 'Active' : 'Inactive'}
                  </Badge>
                </td>
                <td className="p-3">
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
