import { CreateProgramRequest } from '@app/contracts';
import { Loader2, Save } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Form, FormInput, FormTextarea } from '@/components/ui/form';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import { useCreateProgram } from '../api/programs';

export interface ProgramFormValues {
  name: string;
  description: string;
  website: string;
  rewardDetails: string;
  companyName: string;
}

export const EMPTY_PROGRAM: ProgramFormValues = {
  name: '',
  description: '',
  website: '',
  rewardDetails: '',
  companyName: '',
};

export const PROGRAM_TOASTS = {
  created: { title: 'Success', description: 'Referral program created successfully' },
  createFailed: 'Failed to create referral program',
} as const;

/**
 * The program form of spec 2/5 (Manual Entry, and the review form filled from an analyzed document),
 * validated with the server's CreateProgramRequest, plus the optional vendor company of issue 4.
 */
export function ProgramForm({
  idPrefix,
  defaultValues,
  onSaved,
}: {
  idPrefix: string;
  defaultValues: ProgramFormValues;
  onSaved?: () => void;
}) {
  const create = useCreateProgram();
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <Form
      schema={CreateProgramRequest}
      defaultValues={defaultValues}
      onSubmit={async ({ companyName, ...rest }, form) => {
        await create.mutateAsync({ ...rest, ...(companyName ? { companyName } : {}) });
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
          <FormInput
            name="companyName"
            id={id('company')}
            label="Vendor Company (optional)"
            placeholder="The company whose lead criteria and bounties apply"
          />
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
