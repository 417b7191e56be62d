import type { ReactNode } from 'react';
import { Label } from './label';

/** A labelled control with its validation message, wired for screen readers via aria-describedby. */
export function FormField({
  id,
  label,
  error,
  children,
  labelClassName,
}: {
  id: string;
  label: ReactNode;
  error?: string;
  children: ReactNode;
  labelClassName?: string;
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id} className={labelClassName}>
        {label}
      </Label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Props for the input inside a FormField. */
export function fieldA11y(id: string, error?: string) {
  return { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : undefined };
}
