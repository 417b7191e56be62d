import { X } from 'lucide-react';
import { useId, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '@/lib/utils';

export interface TagOption {
  value: string;
  /** What the list shows (defaults to the value). */
  label?: string;
  /** Shown before the label, e.g. a country's flag. */
  prefix?: ReactNode;
}

/** Options shown at most at once: typing narrows long lists (several hundred job titles). */
const MAX_SHOWN = 100;

const norm = (text: string) => text.trim().toLowerCase();

/**
 * A tag-style multi-select (WAI-ARIA combobox with a listbox popup): type to filter the options, Enter or a
 * click adds the active option (with none active, the one option the text begins, else the typed text when
 * custom entries are allowed), duplicates (any case) and blank entries are ignored, each chip has its own
 * remove button. Leaving the field with text typed adds it as Enter would (so Save never drops it). Enter
 * never submits the surrounding form.
 */
export function TagInput({
  id,
  value,
  onChange,
  options = [],
  allowCustom = true,
  placeholder,
  listClassName,
  describedBy,
  label,
}: {
  id: string;
  /** The field's name, for the list of chosen entries ('Selected {label}'). */
  label?: string;
  value: readonly string[];
  onChange: (next: string[]) => void;
  options?: readonly (string | TagOption)[];
  allowCustom?: boolean;
  placeholder?: string;
  /** The popup's height classes; the default is a maximum of 300px (spec 9). */
  listClassName?: string;
  describedBy?: string;
}) {
  const listId = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);

  const all = useMemo<TagOption[]>(() => options.map((o) => (typeof o === 'string' ? { value: o } : o)), [options]);
  const byValue = useMemo(() => new Map(all.map((o) => [norm(o.value), o])), [all]);
  const chosen = useMemo(() => new Set(value.map(norm)), [value]);
  const filtered = useMemo(() => {
    const query = norm(text);
    return all
      .filter(
        (o) =>
          !chosen.has(norm(o.value)) &&
          (query === '' || norm(o.label ?? o.value).includes(query) || norm(o.value).includes(query)),
      )
      .slice(0, MAX_SHOWN);
  }, [all, chosen, text]);
  const showList = open && filtered.length > 0;

  const add = (entry: string) => {
    const trimmed = entry.trim();
    if (trimmed === '') return;
    const known = byValue.get(norm(trimmed));
    if (!known && !allowCustom) return;
    const next = known ? known.value : trimmed;
    setText('');
    setActive(-1);
    // A choice closes the suggestions, so they never cover the chips and fields below (issue 12).
    setOpen(false);
    if (chosen.has(norm(next))) return;
    onChange([...value, next]);
  };

  const remove = (entry: string) => onChange(value.filter((v) => v !== entry));

  /**
   * The one option the typed text begins, when it is not an option itself: Enter then adds that option
   * ("United St" is United States), never the fragment, which would be matched against clients as typed.
   * Escape first (the suggestions closed) and Enter adds the text as typed.
   */
  const onlyPrefixMatch = (): TagOption | null => {
    const query = norm(text);
    if (!query || byValue.has(query)) return null;
    const starting = filtered.filter(
      (o) => norm(o.label ?? o.value).startsWith(query) || norm(o.value).startsWith(query),
    );
    return starting.length === 1 ? starting[0]! : null;
  };

  // The option Enter adds (-1: the text as typed): the one chosen with the arrows, else the one the text begins,
  // shown as the active option so it is no surprise; none while the suggestions are closed.
  const implicit = showList && active < 0 ? onlyPrefixMatch() : null;
  const shownActive = !showList ? -1 : active >= 0 ? active : implicit ? filtered.indexOf(implicit) : -1;

  /** Adds what Enter would: the active option, else the text as typed. */
  const commit = () => {
    const option = shownActive >= 0 ? filtered[shownActive] : undefined;
    add(option ? option.value : text);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      commit();
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((i) => Math.min(i + 1, filtered.length - 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (event.key === 'Escape') {
      if (open) event.preventDefault();
      setOpen(false);
      setActive(-1);
    } else if (event.key === 'Backspace' && text === '' && value.length > 0) {
      remove(value[value.length - 1]!);
    }
  };

  const prefixOf = (entry: string) => byValue.get(norm(entry))?.prefix;

  return (
    <div className="grid gap-2">
      {value.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label={label ? `Selected ${label}` : 'Selected'}>
          {value.map((entry) => (
            <li
              key={entry}
              className="inline-flex items-center gap-1 rounded-full border border-border bg-muted py-0.5 pr-1 pl-2.5 text-sm"
            >
              {prefixOf(entry) ? <span aria-hidden="true">{prefixOf(entry)}</span> : null}
              <span>{entry}</span>
              <button
                type="button"
                aria-label={`Remove ${entry}`}
                onClick={() => remove(entry)}
                className="rounded-full p-0.5 text-muted-foreground hover:bg-background hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              >
                <X className="size-3.5" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="relative">
        <input
          id={id}
          role="combobox"
          aria-expanded={showList}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={shownActive >= 0 ? `${listId}-${shownActive}` : undefined}
          aria-describedby={describedBy}
          autoComplete="off"
          value={text}
          placeholder={placeholder}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => {
            // Text typed and left (Tab, a click on Save) is added as Enter would: never lost without a word.
            if (text.trim() !== '') commit();
            setOpen(false);
          }}
          onKeyDown={onKeyDown}
          className={cn(
            'flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm text-foreground shadow-sm transition-colors',
            'placeholder:text-muted-foreground outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40',
          )}
        />
        <ul
          id={listId}
          role="listbox"
          hidden={!showList}
          className={cn(
            'absolute z-30 mt-1 w-full overflow-y-auto rounded-md border border-border bg-background p-1 shadow-lg',
            listClassName ?? 'max-h-[300px]',
          )}
        >
          {showList
            ? filtered.map((option, index) => (
                <li
                  key={option.value}
                  id={`${listId}-${index}`}
                  role="option"
                  aria-selected={index === shownActive}
                  // mousedown keeps the focus in the input (a blur would close the list first).
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => add(option.value)}
                  className={cn(
                    'flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-muted',
                    index === shownActive && 'bg-muted',
                  )}
                >
                  {option.prefix ? <span aria-hidden="true">{option.prefix}</span> : null}
                  {option.label ?? option.value}
                </li>
              ))
            : null}
        </ul>
      </div>
    </div>
  );
}
