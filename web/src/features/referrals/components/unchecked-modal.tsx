import { ERRORS } from '@app/contracts';
import { RefreshCw, SearchX } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';

export const UNCHECKED_TITLE = "Couldn't Check the Referral Program";
export const UNCHECKED_TEXT = ERRORS.PROGRAM_CHECK_UNAVAILABLE.message;

/**
 * Issue 11: the program check failed (the service could not ask, or took too long). Said as it is, never as
 * "no program": Try again asks once more; Close returns to the submitted screen (the caller's onClose).
 */
export function UncheckedModal({
  retrying,
  onRetry,
  onClose,
}: {
  retrying: boolean;
  onRetry: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent showClose={false} className="text-center sm:text-center">
        <DialogHeader className="items-center sm:text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-amber-100 text-amber-700">
            <SearchX className="size-6" aria-hidden="true" />
          </span>
          <DialogTitle className="text-xl sm:text-center">{UNCHECKED_TITLE}</DialogTitle>
          <DialogDescription className="sm:text-center">
            {UNCHECKED_TEXT} Your referral was submitted either way.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter className="gap-2 sm:justify-center">
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
          <Button onClick={onRetry} disabled={retrying} autoFocus>
            {retrying ? <Spinner className="size-4 text-current" label="Checking" /> : <RefreshCw aria-hidden="true" />}
            Try again
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
