import { possessive } from '@app/domain';
import { CheckCircle2, Circle, Globe, Loader2, Lock, Sparkles } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { cn } from '@/lib/utils';
import { formVariantFor, previewAddress, type FormVariant } from './form-variants';

/** Spec 2/4/9: five steps, one every 1.2 s; the form is typed at 50 ms per character. */
export const PREVIEW_STEPS = [
  'Initializing',
  'Opening website',
  'Analyzing form fields',
  'Filling out form fields',
  'Form complete',
] as const;
export const STEP_MS = 1_200;
export const TYPE_MS = 50;
const FILL_STEP = 3;
const COMPLETE_STEP = 4;
/** The message is cut so the typing stays a few seconds long. */
const MESSAGE_PREVIEW_CHARS = 60;

export const PREVIEW_SUCCESS = 'Success: Form filled successfully (mock dry run)';

export interface PreviewValues {
  firstName: string;
  lastName: string;
  email: string;
  message: string;
}

type FieldKey = keyof PreviewValues;
const FIELD_ORDER: FieldKey[] = ['firstName', 'lastName', 'email', 'message'];

export function previewValues(values: PreviewValues): PreviewValues {
  const message = values.message.trim().replace(/\s+/g, ' ');
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    email: values.email.trim(),
    message: message.length > MESSAGE_PREVIEW_CHARS ? `${message.slice(0, MESSAGE_PREVIEW_CHARS - 1)}…` : message,
  };
}

/**
 * The timeline, all derived from the time since the modal opened: steps 0 to 3 at 0, 1.2, 2.4 and 3.6 s;
 * typing starts with step 3, one character every 50 ms, field after field; 'Form complete' comes on the first
 * 1.2 s beat once the typing is done (4.8 s at the earliest).
 */
export function previewTimeline(totalChars: number) {
  const typingStart = FILL_STEP * STEP_MS;
  const typingEnd = typingStart + totalChars * TYPE_MS;
  const completeAt = Math.max(COMPLETE_STEP * STEP_MS, Math.ceil(typingEnd / STEP_MS) * STEP_MS);
  return {
    completeAt,
    at(elapsed: number) {
      const step = elapsed >= completeAt ? COMPLETE_STEP : Math.min(FILL_STEP, Math.floor(elapsed / STEP_MS));
      const typed = Math.max(0, Math.min(totalChars, Math.floor((elapsed - typingStart) / TYPE_MS)));
      return { step, typed };
    },
  };
}

export function AutomationModal({
  website,
  company,
  values,
  onComplete,
  onClose,
}: {
  website: string | null;
  company: string;
  values: PreviewValues;
  onComplete?: () => void;
  /** Cancel, Close, Escape, or an outside click before completion. */
  onClose: () => void;
}) {
  const variant = formVariantFor(website, company);
  const typedValues = previewValues(values);
  const totalChars = FIELD_ORDER.reduce((sum, key) => sum + typedValues[key].length, 0);
  const timeline = previewTimeline(totalChars);
  const [elapsed, setElapsed] = useState(0);
  const { step, typed } = timeline.at(elapsed);
  const complete = step === COMPLETE_STEP;

  useEffect(() => {
    if (complete) return;
    const timer = setInterval(() => setElapsed((ms) => ms + TYPE_MS), TYPE_MS);
    return () => clearInterval(timer);
  }, [complete]);

  useEffect(() => {
    if (complete) onComplete?.();
  }, [complete, onComplete]);

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        showClose={false}
        className="max-w-3xl gap-5"
        onInteractOutside={(event) => {
          // Spec 2: once complete, an outside click does not dismiss it.
          if (complete) event.preventDefault();
        }}
      >
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <Sparkles className="size-5 text-primary" aria-hidden="true" />
            Automating Referral Form
          </DialogTitle>
          <DialogDescription>
            A preview of how {possessive(variant.brand)} referral form gets filled in for you. This is a mock dry run:
            nothing is submitted to the vendor.
          </DialogDescription>
        </DialogHeader>

        <div className="grid gap-5 md:grid-cols-[12rem_1fr]">
          <StepList step={step} />
          <MockBrowser
            address={previewAddress(website, company, variant)}
            variant={variant}
            step={step}
            values={typedValues}
            typed={typed}
          />
        </div>

        <p className="sr-only" aria-live="polite">
          {`Step ${step + 1} of ${PREVIEW_STEPS.length}: ${PREVIEW_STEPS[step]}`}
        </p>

        {complete ? (
          <div
            role="status"
            className="flex items-center gap-2 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm font-medium text-emerald-800"
          >
            <CheckCircle2 className="size-5 shrink-0" aria-hidden="true" />
            {PREVIEW_SUCCESS}
          </div>
        ) : null}

        <DialogFooter>
          {complete ? (
            <Button onClick={onClose} autoFocus>
              Close
            </Button>
          ) : (
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function StepList({ step }: { step: number }) {
  return (
    <ol aria-label="Automation steps" className="grid content-start gap-3 text-sm">
      {PREVIEW_STEPS.map((label, index) => {
        const done = index < step || step === COMPLETE_STEP;
        const current = index === step && step !== COMPLETE_STEP;
        return (
          <li
            key={label}
            aria-current={current ? 'step' : undefined}
            data-state={done ? 'done' : current ? 'current' : 'pending'}
            className={cn(
              'flex items-center gap-2',
              done ? 'text-foreground' : current ? 'font-medium text-primary' : 'text-muted-foreground',
            )}
          >
            {done ? (
              <CheckCircle2 className="size-4 shrink-0 text-emerald-600" aria-hidden="true" />
            ) : current ? (
              <Loader2 className="size-4 shrink-0 animate-spin" aria-hidden="true" />
            ) : (
              <Circle className="size-4 shrink-0" aria-hidden="true" />
            )}
            {label}
          </li>
        );
      })}
    </ol>
  );
}

function MockBrowser({
  address,
  variant,
  step,
  values,
  typed,
}: {
  address: string;
  variant: FormVariant;
  step: number;
  values: PreviewValues;
  typed: number;
}) {
  const loaded = step >= 1;
  const analyzing = step === 2;
  const shown = FIELD_ORDER.map((key, index) => {
    const start = FIELD_ORDER.slice(0, index).reduce((sum, previous) => sum + values[previous].length, 0);
    return { key, text: values[key].slice(0, Math.max(0, typed - start)) };
  });
  const activeField =
    step === FILL_STEP
      ? (shown.find((field, i) => field.text.length < values[FIELD_ORDER[i]!].length)?.key ?? null)
      : null;

  return (
    <figure
      aria-label={`Mock browser preview of the ${variant.brand} referral form`}
      data-variant={variant.key}
      className="overflow-hidden rounded-lg border border-border bg-background shadow-sm"
    >
      <div className="flex items-center gap-2 border-b border-border bg-muted px-3 py-2">
        <span className="flex gap-1.5" aria-hidden="true">
          <span className="size-2.5 rounded-full bg-red-400" />
          <span className="size-2.5 rounded-full bg-amber-400" />
          <span className="size-2.5 rounded-full bg-emerald-400" />
        </span>
        <div className="flex min-w-0 flex-1 items-center gap-1.5 rounded-md bg-background px-2 py-1 text-xs text-muted-foreground">
          {loaded ? (
            <Lock className="size-3 shrink-0" aria-hidden="true" />
          ) : (
            <Globe className="size-3 shrink-0" aria-hidden="true" />
          )}
          <span className="truncate" data-testid="preview-address">
            {loaded ? address : 'about:blank'}
          </span>
        </div>
      </div>
      {loaded ? (
        <div className="animate-in-fade">
          <div className={cn('px-4 py-3 text-sm font-semibold', variant.accentClass)}>{variant.brand}</div>
          <div className="grid gap-3 p-4" aria-hidden="true">
            <p className="text-base font-semibold text-foreground">{variant.title}</p>
            {shown.map(({ key, text }) => (
              <div key={key} className="grid gap-1">
                <span className="text-xs font-medium text-muted-foreground">{variant.labels[key]}</span>
                <div
                  className={cn(
                    'flex min-h-9 items-center rounded-md border px-2.5 py-1.5 text-sm transition-shadow',
                    analyzing ? 'border-primary ring-2 ring-primary/30' : 'border-input',
                    activeField === key ? 'border-primary' : null,
                  )}
                  data-field={key}
                >
                  <span className="break-all">{text}</span>
                  {activeField === key ? (
                    <span className="ml-px inline-block h-4 w-px animate-caret bg-foreground" />
                  ) : null}
                </div>
              </div>
            ))}
            <div>
              <span
                className={cn(
                  'inline-flex h-9 items-center rounded-md px-4 text-sm font-medium opacity-90',
                  variant.accentClass,
                )}
              >
                {variant.submitLabel}
              </span>
            </div>
          </div>
        </div>
      ) : (
        <div className="flex h-72 items-center justify-center text-sm text-muted-foreground">
          <Loader2 className="mr-2 size-4 animate-spin" aria-hidden="true" />
          Starting browser…
        </div>
      )}
    </figure>
  );
}
