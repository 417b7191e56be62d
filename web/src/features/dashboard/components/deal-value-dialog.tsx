import { UpdateStatusRequest } from '@app/contracts';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';

/**
 * '1,250.50', '$1250' or '1 250' → 1250.5; blank → undefined (the value is optional); anything else → NaN
 * (reported by the schema as not a number).
 */
export function parseDealValue(text: string): number | undefined {
  const cleaned = text.replace(/[\s,$]/g, '');
  if (cleaned === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(cleaned) ? Number(cleaned) : Number.NaN;
}

/** Closed-Won: asks for the deal's first-year ARR (optional, positive), validated with UpdateStatusRequest. */
export function DealValueDialog({
  open,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  onCancel: () => void;
  onConfirm: (dealValue: number | undefined) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onCancel())}>
      {open ? <DealValueForm onCancel={onCancel} onConfirm={onConfirm} /> : null}
    </Dialog>
  );
}

function DealValueForm({
  onCancel,
  onConfirm,
}: {
  onCancel: () => void;
  onConfirm: (dealValue: number | undefined) => void;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const dealValue = parseDealValue(text);
    const parsed = UpdateStatusRequest.safeParse({ status: 'became_customer', dealValue });
    if (!parsed.success) {
      setError(
        Number.isNaN(dealValue)
          ? 'Deal value must be a number'
          : (parsed.error.issues[0]?.message ?? 'Invalid deal value'),
      );
      return;
    }
    onConfirm(parsed.data.dealValue);
  };

  return (
    <DialogContent>
      <form onSubmit={submit} noValidate className="grid gap-4">
        <DialogHeader>
          <DialogTitle>Mark as Closed-Won</DialogTitle>
          <DialogDescription>
            Percentage bounties are computed from the deal's value. Leave it blank if you do not know it.
          </DialogDescription>
        </DialogHeader>
        <FormField id="deal-value" label="Deal value (first-year ARR, USD)" error={error}>
          <Input
            {...fieldA11y('deal-value', error)}
            inputMode="decimal"
            autoComplete="off"
            placeholder="e.g. 24,000 (optional)"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setError(undefined);
            }}
          />
        </FormField>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit">Mark Closed-Won</Button>
        </DialogFooter>
      </form>
    </DialogContent>
  );
}
