import { CreateProgramRequest } from '@app/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2, Save } from 'lucide-react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import { useCreateProgram } from '../api/programs';

type FormInput = z.input<typeof CreateProgramRequest>;
type FormOutput = z.output<typeof CreateProgramRequest>;

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

const resolver = zodResolver(CreateProgramRequest);

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
  const {
    register: field,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues,
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const { companyName, ...rest } = values;
      await create.mutateAsync({ ...rest, ...(companyName ? { companyName } : {}) });
      toast(PROGRAM_TOASTS.created);
      reset(EMPTY_PROGRAM);
      onSaved?.();
    } catch (error) {
      toast({ variant: 'destructive', title: 'Error', description: errorText(error, PROGRAM_TOASTS.createFailed) });
    }
  });

  const id = (name: string) => `${idPrefix}-${name}`;
  const busy = isSubmitting || create.isPending;
  return (
    <form className="grid gap-4" onSubmit={onSubmit} noValidate>
      <FormField id={id('name')} label="Program Name" error={errors.name?.message}>
        <Input {...fieldA11y(id('name'), errors.name?.message)} {...field('name')} />
      </FormField>
      <FormField id={id('company')} label="Vendor Company (optional)" error={errors.companyName?.message}>
        <Input
          {...fieldA11y(id('company'), errors.companyName?.message)}
          {...field('companyName')}
          placeholder="The company whose lead criteria and bounties apply"
        />
      </FormField>
      <FormField id={id('description')} label="Description" error={errors.description?.message}>
        <Textarea {...fieldA11y(id('description'), errors.description?.message)} {...field('description')} />
      </FormField>
      <FormField id={id('website')} label="Website" error={errors.website?.message}>
        <Input
          type="url"
          placeholder="https://"
          {...fieldA11y(id('website'), errors.website?.message)}
          {...field('website')}
        />
      </FormField>
      <FormField id={id('reward')} label="Reward Details" error={errors.rewardDetails?.message}>
        <Textarea
          className="min-h-[200px]"
          {...fieldA11y(id('reward'), errors.rewardDetails?.message)}
          {...field('rewardDetails')}
        />
      </FormField>
      <div className="flex justify-end">
        <Button type="submit" disabled={busy}>
          {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />} Save Program
        </Button>
      </div>
    </form>
  );
}
