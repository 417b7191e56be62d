import type { Vendor, VendorInvitation } from '@app/contracts';
import { Check, Loader2, Mail } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import { useAcceptInvitation } from '../api/accept-invitation';

/** Invitations sent to the signed-in user's address, each with Accept. */
export function MyInvitations({
  invitations,
  onJoined,
}: {
  invitations: VendorInvitation[];
  onJoined: (vendor: Vendor) => void;
}) {
  const accept = useAcceptInvitation();
  if (invitations.length === 0) return null;
  return (
    <Card role="region" aria-labelledby="my-invitations-title" className="border-primary/40">
      <CardHeader>
        <CardTitle id="my-invitations-title" className="flex items-center gap-2 text-lg">
          <Mail className="size-5 text-primary" aria-hidden="true" />
          Invitations for you
        </CardTitle>
        <CardDescription>Accept to join the workspace with your address.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y divide-border rounded-lg border border-border" aria-label="Invitations for you">
          {invitations.map((invitation) => {
            const pending = accept.isPending && accept.variables === invitation.id;
            return (
              <li key={invitation.id} className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center">
                <div className="min-w-0 flex-1">
                  <p className="font-medium">{invitation.vendorName}</p>
                  <p className="text-sm text-muted-foreground">
                    {`${invitation.invitedBy} invited you to join as ${invitation.role === 'owner' ? 'an owner' : 'a member'}.`}
                  </p>
                </div>
                <Button
                  aria-label={`Accept the invitation to ${invitation.vendorName}`}
                  disabled={accept.isPending}
                  onClick={() =>
                    accept.mutate(invitation.id, {
                      onSuccess: (vendor) => {
                        toast({ title: 'Welcome aboard', description: `You joined ${vendor.name}.` });
                        onJoined(vendor);
                      },
                      onError: (error) =>
                        toast({
                          variant: 'destructive',
                          title: 'Error',
                          description: errorText(error, 'Failed to accept the invitation'),
                        }),
                    })
                  }
                >
                  {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Check aria-hidden="true" />}
                  Accept
                </Button>
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}
