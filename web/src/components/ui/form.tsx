import { useRef, type ComponentProps, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import {
  FormProvider,
  get,
  set,
  useController,
  useForm,
  useFormContext,
  type ControllerRenderProps,
  type DefaultValues,
  type FieldErrors,
  type FieldValues,
  type Resolver,
  type UseFormProps,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';
import { ApiError } from '@/lib/http';
import { CheckboxField } from './checkbox-field';
import { FormField, fieldA11y } from './form-field';
import { Input } from './input';
import { NativeSelect } from './native-select';
import { Textarea } from './textarea';

/**
 * Every form of the app: react-hook-form validated with a schema of @app/contracts (the one the server
 * parses the request with). Validated on submit, then again on every change (spec 5). A failure the server
 * pins on a field (`field` of the error answer) is shown next to that field.
 *
 *   <Form schema={ResendVerificationRequest} defaultValues={{ email: '' }} onSubmit={send} onError={toastIt}>
 *     <FormInput name="email" label="Email" type="email" />
 *   </Form>
 */

type Schema = z.ZodType<FieldValues, FieldValues>;
export type FormApi<S extends Schema> = UseFormReturn<z.input<S>, unknown, z.output<S>>;

/** The field an issue belongs to: its path without list positions ('recipients.to.0' is 'recipients.to'). */
export function fieldOfPath(path: readonly PropertyKey[]): string {
  const names = path.map(String);
  while (names.length > 0 && /^\d+$/.test(names[names.length - 1]!)) names.pop();
  return names.join('.');
}

/** The first message of each field a schema refuses `values` for ('' for a form-wide one). */
export function schemaErrors(schema: Schema, values: unknown): Record<string, string> {
  const result = schema.safeParse(values);
  const errors: Record<string, string> = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) errors[fieldOfPath(issue.path)] ??= issue.message;
  return errors;
}

export function schemaResolver<S extends Schema>(schema: S): Resolver<z.input<S>, unknown, z.output<S>> {
  return async (values) => {
    const result = await schema.safeParseAsync(values);
    if (result.success) return { values: result.data, errors: {} };
    const errors: FieldValues = {};
    for (const issue of result.error.issues) {
      const name = fieldOfPath(issue.path) || 'root';
      if (!get(errors, name)) set(errors, name, { type: issue.code, message: issue.message });
    }
    return { values: {}, errors: errors as FieldErrors<z.input<S>> };
  };
}

export function useSchemaForm<S extends Schema>(
  schema: S,
  options: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver'> & {
    defaultValues: DefaultValues<z.input<S>>;
  },
): FormApi<S> {
  return useForm<z.input<S>, unknown, z.output<S>>({
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    ...options,
    resolver: schemaResolver(schema),
  });
}

/** Shows a server failure next to the field it names; false when it names none of this form's fields. */
export function showServerError(form: UseFormReturn<FieldValues>, error: unknown): boolean {
  if (!(error instanceof ApiError) || !error.field) return false;
  const values = form.getValues();
  const segments = error.field.split('.');
  while (segments.length > 0) {
    const name = segments.join('.');
    if (get(values, name) !== undefined) {
      form.setError(name, { type: 'server', message: error.message });
      form.setFocus(name);
      return true;
    }
    segments.pop();
  }
  return false;
}

type FormElementProps = Omit<ComponentProps<'form'>, 'onSubmit' | 'onError' | 'children'>;

type FormBodyProps<S extends Schema> = FormElementProps & {
  onSubmit: (values: z.output<S>, form: FormApi<S>) => unknown;
  /** A failure of `onSubmit` that is not shown next to a field. */
  onError?: (error: unknown, form: FormApi<S>) => void;
  /** The values were refused by the schema (the messages are on their fields already). */
  onInvalid?: (errors: FieldErrors<z.input<S>>, form: FormApi<S>) => void;
  /** Enter in a one-line input does not submit (forms with tag inputs, spec 2). */
  noEnterSubmit?: boolean;
  children: ReactNode | ((form: FormApi<S>) => ReactNode);
};

/** With a form made by `useSchemaForm` (the page reads it too), or with the schema and the starting values. */
type FormProps<S extends Schema> = FormBodyProps<S> &
  (
    | { form: FormApi<S>; schema?: undefined; defaultValues?: undefined }
    | { form?: undefined; schema: S; defaultValues: DefaultValues<z.input<S>> }
  );

export function Form<S extends Schema>({ form, schema, defaultValues, ...props }: FormProps<S>) {
  return form ? (
    <FormBody<S> {...props} form={form} />
  ) : (
    <OwnForm<S> {...props} schema={schema!} defaultValues={defaultValues!} />
  );
}

function OwnForm<S extends Schema>({
  schema,
  defaultValues,
  ...props
}: FormBodyProps<S> & { schema: S; defaultValues: DefaultValues<z.input<S>> }) {
  const form = useSchemaForm(schema, { defaultValues });
  return <FormBody<S> {...props} form={form as FormApi<S>} />;
}

function preventEnterSubmit(event: KeyboardEvent<HTMLFormElement>) {
  if (event.key === 'Enter' && event.target instanceof HTMLInputElement) event.preventDefault();
}

function FormBody<S extends Schema>({
  form,
  onSubmit,
  onError,
  onInvalid,
  noEnterSubmit = false,
  children,
  ...formProps
}: FormBodyProps<S> & { form: FormApi<S> }) {
  // One submit at a time: a second click arrives before the screen has disabled its button (validation runs
  // first, asynchronously), and would send the request again (a password changed twice, two notices).
  const submitting = useRef(false);
  const submitOnce = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting.current) return;
    submitting.current = true;
    try {
      await submit(event);
    } finally {
      submitting.current = false;
    }
  };
  const submit = form.handleSubmit(
    async (values) => {
      try {
        await onSubmit(values, form);
      } catch (error) {
        if (showServerError(form as unknown as UseFormReturn<FieldValues>, error)) return;
        if (!onError) throw error;
        onError(error, form);
      }
    },
    onInvalid && ((errors) => onInvalid(errors, form)),
  );
  return (
    <FormProvider {...form}>
      <form
        noValidate
        {...formProps}
        onSubmit={(event) => void submitOnce(event)}
        onKeyDown={noEnterSubmit ? preventEnterSubmit : formProps.onKeyDown}
      >
        {typeof children === 'function' ? children(form) : children}
      </form>
    </FormProvider>
  );
}

/** The message of a field, or of the first of its entries (a list field refused for one entry). */
export function fieldError(errors: FieldErrors, name: string): string | undefined {
  const found: unknown = get(errors, name);
  return firstMessage(found);
}

function firstMessage(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { message } = value as { message?: unknown };
  if (typeof message === 'string') return message;
  for (const nested of Object.values(value)) {
    const inner = firstMessage(nested);
    if (inner) return inner;
  }
  return undefined;
}

const idOf = (name: string) => name.replace(/\./g, '-');

interface FieldProps {
  name: string;
  label: ReactNode;
  /** The control's id (the label points at it); the name with dots as dashes by default. */
  id?: string;
  labelClassName?: string;
}

export function FormInput({
  name,
  label,
  id = idOf(name),
  labelClassName,
  ...props
}: FieldProps & ComponentProps<'input'>) {
  const { register, formState } = useFormContext();
  const error = fieldError(formState.errors, name);
  return (
    <FormField id={id} label={label} error={error} labelClassName={labelClassName}>
      <Input {...props} {...fieldA11y(id, error)} {...register(name)} />
    </FormField>
  );
}

export function FormTextarea({
  name,
  label,
  id = idOf(name),
  labelClassName,
  ...props
}: FieldProps & ComponentProps<'textarea'>) {
  const { register, formState } = useFormContext();
  const error = fieldError(formState.errors, name);
  return (
    <FormField id={id} label={label} error={error} labelClassName={labelClassName}>
      <Textarea {...props} {...fieldA11y(id, error)} {...register(name)} />
    </FormField>
  );
}

/** A native select; an empty option value stands for "not chosen" and is read as undefined. */
export function FormSelect({
  name,
  label,
  id = idOf(name),
  labelClassName,
  children,
  ...props
}: FieldProps & ComponentProps<'select'>) {
  const { register, formState } = useFormContext();
  const error = fieldError(formState.errors, name);
  return (
    <FormField id={id} label={label} error={error} labelClassName={labelClassName}>
      <NativeSelect
        {...props}
        {...fieldA11y(id, error)}
        {...register(name, { setValueAs: (value: unknown) => (value === '' ? undefined : value) })}
      >
        {children}
      </NativeSelect>
    </FormField>
  );
}

export function FormCheckbox({
  name,
  label,
  id = idOf(name),
  hint,
  ...props
}: Omit<FieldProps, 'labelClassName'> & { hint?: ReactNode } & Omit<ComponentProps<'input'>, 'type'>) {
  const { register } = useFormContext();
  return <CheckboxField {...props} id={id} label={label} hint={hint} {...register(name)} />;
}

export interface ControlProps {
  field: ControllerRenderProps<FieldValues, string>;
  id: string;
  error: string | undefined;
  /** id, aria-invalid and aria-describedby for the control. */
  a11y: ReturnType<typeof fieldA11y>;
}

/** A field whose control is not a plain input (tag inputs, chips, switches): it gets value and onChange. */
export function FormControl({
  name,
  label,
  id = idOf(name),
  labelClassName,
  children,
}: Omit<FieldProps, 'label'> & { label?: ReactNode; children: (control: ControlProps) => ReactNode }) {
  const { control } = useFormContext();
  const { field, fieldState } = useController({ name, control });
  const error = firstMessage(fieldState.error);
  const rendered = children({ field, id, error, a11y: fieldA11y(id, error) });
  if (label === undefined) return rendered;
  return (
    <FormField id={id} label={label} error={error} labelClassName={labelClassName}>
      {rendered}
    </FormField>
  );
}
