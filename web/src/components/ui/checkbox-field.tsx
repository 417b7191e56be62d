import type { ComponentProps, ReactNode } from 'react';
import { cn } from '@/lib/utils';

/** A native checkbox with its label and an optional hint, the whole row clickable. */
export function CheckboxField({
  id,
  label,
  hint,
  className,
  ...props
}: Omit<ComponentProps<'input'>, 'type'> & { id: string; label: ReactNode; hint?: ReactNode }) {
  return (
    <div className={cn('flex items-start gap-3', className)}>
      <input
        id={id}
        type="checkbox"
        className="mt-0.5 size-4 shrink-0 rounded border-input accent-primary focus-visible:ring-2 focus-visible:ring-ring"
        aria-describedby={hint ? `${id}-hint` : undefined}
        {...props}
      />
      <div className="grid gap-1">
        <label htmlFor={id} className="text-sm leading-tight font-medium">
          {label}
        </label>
        {hint ? (
          <p id={`${id}-hint`} className="text-xs text-muted-foreground">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}
