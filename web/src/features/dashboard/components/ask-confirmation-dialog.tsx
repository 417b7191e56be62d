import { ConfirmationRequest, ERRORS, type Milestone, type ReferralListItem as Referral } from '@app/contracts';
import { milestoneLabel } from '@app/domain';
import { Loader2 } from 'lucide-react';
import { useState } from 'react';
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
import { toast } from '@/hooks/use-toast';
import { isApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { useRequestConfirmation } from '../api/request-confirmation';

/** The refusals a referrer can meet here, said for them (the server's texts, chosen by code). */
const REFUSALS = [
  'REFERRAL_NOT_ROUTED',
  'VENDOR_NOT_VERIFIED',
  'LEAD_DECLINED',
  'MILESTONE_ALREADY_CONFIRMED',
  'CONFIRMATION_RECENTLY_REQUESTED',
] as const;

export function confirmationErrorText(error: unknown): string {
  const code = REFUSALS.find((c) => isApiError(error, c));
  return code ? ERRORS[code].message : errorText(error, 'Failed to send the request');
}

/** "Ask the vendor to confirm": the milestone, an optional message; the vendor is emailed. */
export function AskConfirmationDialog({
  referral,
  milestone,
  onClose,
}: {
  referral: Referral;
  milestone: Milestone | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={milestone !== null} onOpenChange={(next) => !next && onClose()}>
      {milestone ? <AskFields referral={referral} milestone={milestone} onClose={onClose} /> : null}
    </Dialog>
  );
}

function AskFields({
  referral,
  milestone,
  onClose,
}: {
  referral: Referral;
  milestone: Milestone;
  onClose: () => void;
}) {
  const ask = useRequestConfirmation();
  const [failure, setFailure] = useState<string | null>(null);
  const vendor = referral.lead?.vendorName ?? 'the vendor';
  const label = milestoneLabel(milestone);
  return (
    <DialogContent>
      <DialogHeader>
        <DialogTitle>{`Ask ${vendor} to confirm ${label}`}</DialogTitle>
        <DialogDescription>
          The vendor is emailed and confirms it in their lead inbox. The commission counts once they confirm.
        </DialogDescription>
      </DialogHeader>
      <Form
        schema={ConfirmationRequest}
        defaultValues={{ milestone, message: '' }}
        aria-label="Ask the vendor to confirm"
        className="grid gap-4"
        onSubmit={async (body) => {
          setFailure(null);
          await ask.mutateAsync({ id: referral.id, body });
          toast({ title: 'Request sent', description: `${vendor} has been asked to confirm ${label}.` });
          onClose();
        }}
        onError={(error) => setFailure(confirmationErrorText(error))}
      >
        {({ formState }) => (
          <>
            <FormTextarea
              name="message"
              id="confirmation-message"
              label="Message to the vendor (optional)"
              rows={3}
              placeholder="e.g. I heard they signed last week."
            />
            {failure ? (
              <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-900">
                {failure}
              </p>
            ) : null}
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline" disabled={formState.isSubmitting}>
                  Cancel
                </Button>
              </DialogClose>
              <Button type="submit" disabled={formState.isSubmitting}>
                {formState.isSubmitting ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
                Send request
              </Button>
            </DialogFooter>
          </>
        )}
      </Form>
    </DialogContent>
  );
}
