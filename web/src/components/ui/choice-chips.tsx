import { Check } from 'lucide-react';
import { cn } from '@/lib/utils';

/** A multi-select over a short fixed list: a fieldset of checkboxes drawn as toggle chips. */
export function ChoiceChips({
  legend,
  options,
  value,
  onChange,
}: {
  legend: string;
  options: readonly string[];
  value: readonly string[];
  onChange: (next: string[]) => void;
}) {
  const toggle = (option: string, on: boolean) =>
    onChange(on ? options.filter((o) => o === option || value.includes(o)) : value.filter((v) => v !== option));
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium leading-none">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {options.map((option) => {
          const checked = value.includes(option);
          return (
            <label
              key={option}
              className={cn(
                'inline-flex cursor-pointer items-center gap-1.5 rounded-full border px-3 py-1 text-sm transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                checked
                  ? 'border-primary bg-primary text-primary-foreground'
                  : 'border-border bg-background hover:bg-muted',
              )}
            >
              <input
                type="checkbox"
                className="sr-only"
                checked={checked}
                onChange={(event) => toggle(option, event.target.checked)}
              />
              {checked ? <Check className="size-3.5" aria-hidden="true" /> : null}
              {option}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
