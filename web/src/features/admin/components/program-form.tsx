import { CreateProgramRequest, websiteHost, type VendorSummary } from '@app/contracts';
import { companyKey } from '@app/domain';
import { Building2, Loader2, Plus, Save } from 'lucide-react';
import { useEffect } from 'react';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormInput, FormTextarea, useSchemaForm } from '@/components/ui/form';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import { useAdminCreateVendor } from '../api/admin-create-vendor';
import { useCreateProgram } from '../api/programs';
import { useVendorDirectory } from '../api/vendor-directory';

export interface ProgramFormValues {
  name: string;
  description: string;
  website: string;
  rewardDetails: string;
  /** The vendor workspace it belongs to; undefined: not linked. */
  vendorId?: string;
}

export const EMPTY_PROGRAM: ProgramFormValues = {
  name: '',
  description: '',
  website: '',
  rewardDetails: '',
};

export const PROGRAM_TOASTS = {
  created: { title: 'Success', description: 'Referral program created successfully' },
  createFailed: 'Failed to create referral program',
} as const;

type Summary = VendorSummary;

/** The workspace a document's vendor name (or its website's domain) points at, if there is one. */
export function proposedMatch(vendors: readonly Summary[], vendorName: string, website: string): Summary | null {
  const key = companyKey(vendorName);
  const host = websiteHost(website);
  return (
    (host ? vendors.find((v) => v.domain === host) : undefined) ??
    (key ? vendors.find((v) => companyKey(v.name) === key) : undefined) ??
    null
  );
}

/**
 * The program form of spec 2/5 (Manual Entry, and the review form filled from an analyzed document),
 * validated with the server's CreateProgramRequest, plus the vendor workspace it belongs to (issue 9): after
 * an analysis, the vendor the document names is linked when it has a workspace, or can be created.
 */
export function ProgramForm({
  idPrefix,
  defaultValues,
  proposedVendor,
  onSaved,
}: {
  idPrefix: string;
  defaultValues: ProgramFormValues;
  /** After a document analysis: the vendor it names ('' when none); its workspace is looked up. */
  proposedVendor?: string;
  onSaved?: () => void;
}) {
  const create = useCreateProgram();
  const directory = useVendorDirectory({ status: 'all' });
  const createVendor = useAdminCreateVendor();
  const form = useSchemaForm(CreateProgramRequest, { defaultValues });
  const id = (name: string) => `${idPrefix}-${name}`;
  const vendors = directory.data ?? [];
  // The document's website (or the vendor it names) may already have a workspace.
  const match = proposedVendor !== undefined ? proposedMatch(vendors, proposedVendor, defaultValues.website) : null;

  // The vendor the document names is linked as soon as its workspace is known (the admin may change it).
  useEffect(() => {
    if (match && !form.getValues('vendorId')) form.setValue('vendorId', match.id);
  }, [match, form]);

  const createProposed = () => {
    const website = form.getValues('website');
    const domain = websiteHost(website ?? '');
    if (!domain) {
      form.setError('website', {
        type: 'manual',
        message: 'Enter the program website first: it names the vendor domain',
      });
      form.setFocus('website');
      return;
    }
    if (!proposedVendor) return;
    createVendor.mutate(
      { name: proposedVendor, website: domain },
      {
        onSuccess: (vendor) => {
          form.setValue('vendorId', vendor.id);
          toast({ title: 'Workspace created', description: `${vendor.name} (${vendor.domain}) is not verified yet.` });
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Error',
            description: errorText(error, 'Failed to create the workspace'),
          }),
      },
    );
  };

  return (
    <Form
      form={form}
      onSubmit={async (values) => {
        await create.mutateAsync(values);
        toast(PROGRAM_TOASTS.created);
        form.reset(EMPTY_PROGRAM);
        onSaved?.();
      }}
      onError={(error) =>
        toast({ variant: 'destructive', title: 'Error', description: errorText(error, PROGRAM_TOASTS.createFailed) })
      }
      className="grid gap-4"
    >
      {({ formState }) => (
        <>
          <FormInput name="name" id={id('name')} label="Program Name" />
          {/* Controlled: a workspace created here is chosen before its option arrives with the list. */}
          <FormControl name="vendorId" id={id('vendor')} label="Vendor workspace">
            {({ field, a11y }) => (
              <NativeSelect
                {...a11y}
                ref={field.ref}
                name={field.name}
                value={(field.value as string | null | undefined) ?? ''}
                onBlur={field.onBlur}
                onChange={(event) => field.onChange(event.target.value || undefined)}
              >
                <option value="">Not linked to a vendor</option>
                {vendors.map((vendor) => (
                  <option key={vendor.id} value={vendor.id}>
                    {`${vendor.name} (${vendor.domain || 'no website'})${vendor.verified ? '' : ', not verified'}`}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FormControl>
          {match || proposedVendor ? (
            <div className="-mt-1 flex flex-col gap-2 rounded-md bg-muted p-3 text-sm sm:flex-row sm:items-center">
              <Building2 className="size-4 shrink-0 text-primary" aria-hidden="true" />
              {match ? (
                <p className="flex-1">
                  {proposedVendor
                    ? `The document names ${proposedVendor}: linked to the ${match.name} workspace.`
                    : `The program's website is on ${match.domain}: linked to the ${match.name} workspace.`}
                </p>
              ) : (
                <>
                  <p className="flex-1">{`The document names ${proposedVendor}, which has no workspace yet.`}</p>
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={createProposed}
                    disabled={createVendor.isPending || directory.isPending}
                  >
                    {createVendor.isPending ? (
                      <Loader2 className="animate-spin" aria-hidden="true" />
                    ) : (
                      <Plus aria-hidden="true" />
                    )}
                    {`Create a workspace for ${proposedVendor}`}
                  </Button>
                </>
              )}
            </div>
          ) : null}
          <p className="-mt-2 text-xs text-muted-foreground">
            The vendor's lead criteria and bounties apply to the program, and its members can manage it.
          </p>
          <FormTextarea name="description" id={id('description')} label="Description" />
          <FormInput name="website" id={id('website')} label="Website" type="url" placeholder="https://" />
          <FormTextarea name="rewardDetails" id={id('reward')} label="Reward Details" className="min-h-[200px]" />
          <div className="flex justify-end">
            <Button type="submit" disabled={formState.isSubmitting || create.isPending}>
              {formState.isSubmitting || create.isPending ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <Save aria-hidden="true" />
              )}{' '}
              Save Program
            </Button>
          </div>
        </>
      )}
    </Form>
  );
}
