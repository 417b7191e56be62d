import { DeclineLeadRequest } from '@app/contracts';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form, FormTextarea } from '@/components/ui/form';

/** Declining needs a reason: the referrer reads it. */
export function DeclineDialog({
  client,
  open,
  onCancel,
  onDecline,
}: {
  /** Who is declined, for the title. */
  client: string;
  open: boolean;
  onCancel: () => void;
  onDecline: (reason: string) => Promise<unknown>;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onCancel()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Decline {client}?</DialogTitle>
          <DialogDescription>
            The referrer is told by email with your reason, and the referral is marked Declined.
          </DialogDescription>
        </DialogHeader>
        <Form
          schema={DeclineLeadRequest}
          defaultValues={{ reason: '' }}
          aria-label="Decline the lead"
          className="grid gap-4"
          onSubmit={({ reason }) => onDecline(reason)}
          // The failure is told by the page (toast); the dialog stays open to try again.
          onError={() => {}}
        >
          {({ formState }) => (
            <>
              <FormTextarea
                name="reason"
                id="decline-reason"
                label="Why are you declining?"
                rows={4}
                placeholder="e.g. We only serve companies in the EU."
                required
                aria-required="true"
              />
              <DialogFooter>
                <DialogClose asChild>
                  <Button variant="outline" disabled={formState.isSubmitting}>
                    Cancel
                  </Button>
                </DialogClose>
                <Button type="submit" variant="destructive" disabled={formState.isSubmitting}>
                  {formState.isSubmitting ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
                  Decline lead
                </Button>
              </DialogFooter>
            </>
          )}
        </Form>
      </DialogContent>
    </Dialog>
  );
}
