import { PartyPopper } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';

/**
 * Spec 2: shown when the vendor has no referral program. Close returns to the submitted screen (the caller's
 * onClose). "We'll let them know" only when the referral reached the vendor's lead inbox (`routed`).
 */
export function ThanksModal({ company, routed, onClose }: { company: string; routed: boolean; onClose: () => void }) {
  const vendor = company.trim() || 'This vendor';
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent showClose={false} className="text-center sm:text-center">
        <DialogHeader className="items-center sm:text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <PartyPopper className="size-6" aria-hidden="true" />
          </span>
          <DialogTitle className="text-xl sm:text-center">Thanks for Your Referral!</DialogTitle>
          <DialogDescription className="sm:text-center">
            {vendor} doesn't have a referral program with us yet, so you're among the first to refer them.{' '}
            {routed ? "We'll let them know, and you're" : "You're"} first in line for rewards when their program
            launches.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter className="sm:justify-center">
          <Button onClick={onClose} autoFocus>
            Close
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
