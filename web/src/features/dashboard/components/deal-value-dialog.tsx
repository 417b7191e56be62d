import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form, FormInput } from '@/components/ui/form';
import { DealValueForm } from '../utils/deal-value';

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
      {open ? <DealValueFields onCancel={onCancel} onConfirm={onConfirm} /> : null}
    </Dialog>
  );
}

function DealValueFields({
  onCancel,
  onConfirm,
}: {
  onCancel: () => void;
  onConfirm: (dealValue: number | undefined) => void;
}) {
  return (
    <DialogContent>
      <Form
        schema={DealValueForm}
        defaultValues={{ dealValue: '' }}
        onSubmit={({ dealValue }) => onConfirm(dealValue)}
        className="grid gap-4"
      >
        <DialogHeader>
          <DialogTitle>Mark as Closed-Won</DialogTitle>
          <DialogDescription>
            Percentage bounties are computed from the deal's value. Leave it blank if you do not know it.
          </DialogDescription>
        </DialogHeader>
        <FormInput
          name="dealValue"
          id="deal-value"
          label="Deal value (first-year ARR, USD)"
          inputMode="decimal"
          autoComplete="off"
          placeholder="e.g. 24,000 (optional)"
        />
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit">Mark Closed-Won</Button>
        </DialogFooter>
      </Form>
    </DialogContent>
  );
}
