import { InviteMemberRequest, type Vendor } from '@app/contracts';
import { Loader2, MailPlus, X } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Form, FormInput, FormSelect } from '@/components/ui/form';
import { toast } from '@/hooks/use-toast';
import { isApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/dates';
import { errorText } from '@/lib/errors';
import { useInviteMember } from '../api/invite-member';
import { useRevokeInvitation } from '../api/revoke-invitation';
import { ROLE_LABELS } from '../utils/forms';

/** Owners invite by email (the invitee accepts by signing in with that address) and withdraw invitations. */
export function InvitationsPanel({ vendor }: { vendor: Vendor }) {
  const invite = useInviteMember(vendor.id);
  const revoke = useRevokeInvitation(vendor.id);

  return (
    <Card role="region" aria-labelledby="invite-title">
      <CardHeader>
        <CardTitle id="invite-title" className="flex items-center gap-2 text-lg">
          <MailPlus className="size-5 text-primary" aria-hidden="true" />
          Invite a colleague
        </CardTitle>
        <CardDescription>
          We email them a link. They join by signing in with that address; a colleague with an address at{' '}
          {vendor.domain || 'your domain'} can verify the workspace.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <Form
          schema={InviteMemberRequest}
          defaultValues={{ email: '', role: 'member' }}
          aria-label="Invite a colleague"
          className="grid gap-4 sm:grid-cols-[1fr_10rem_auto] sm:items-end"
          onSubmit={async (request, form) => {
            const invitation = await invite.mutateAsync(request);
            // An address already invited keeps its invitation (its role updated) and gets no second email.
            const again = vendor.invitations.some((pending) => pending.id === invitation.id);
            toast(
              again
                ? {
                    title: 'Invitation updated',
                    description: `${invitation.email} was already invited: they join as ${ROLE_LABELS[invitation.role].toLowerCase()}. No second email was sent.`,
                  }
                : { title: 'Invitation sent', description: `We emailed ${invitation.email}.` },
            );
            form.reset({ email: '', role: 'member' });
          }}
          onError={(error, form) => {
            if (isApiError(error, 'ALREADY_A_MEMBER')) {
              form.setError('email', { type: 'server', message: error.message });
              return;
            }
            toast({
              variant: 'destructive',
              title: 'Error',
              description: errorText(error, 'Failed to send the invitation'),
            });
          }}
        >
          {({ formState }) => (
            <>
              <FormInput
                name="email"
                id="invite-email"
                label="Email"
                type="email"
                inputMode="email"
                placeholder={`name@${vendor.domain || 'company.com'}`}
              />
              <FormSelect name="role" id="invite-role" label="Role">
                <option value="member">Member</option>
                <option value="owner">Owner</option>
              </FormSelect>
              <Button type="submit" disabled={formState.isSubmitting}>
                {formState.isSubmitting ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
                Send invitation
              </Button>
            </>
          )}
        </Form>

        <div className="grid gap-2">
          <h3 className="text-sm font-semibold">Pending invitations</h3>
          {vendor.invitations.length === 0 ? (
            <p className="text-sm text-muted-foreground">No pending invitations.</p>
          ) : (
            <ul className="divide-y divide-border rounded-lg border border-border" aria-label="Pending invitations">
              {vendor.invitations.map((invitation) => {
                const pending = revoke.isPending && revoke.variables === invitation.id;
                return (
                  <li key={invitation.id} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center">
                    <div className="min-w-0 flex-1">
                      <p className="font-medium break-all">{invitation.email}</p>
                      <p className="text-xs text-muted-foreground">Invited {formatDate(invitation.createdAt)}</p>
                    </div>
                    <div className="flex items-center gap-2">
                      <Badge variant="secondary">{ROLE_LABELS[invitation.role]}</Badge>
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-label={`Withdraw the invitation to ${invitation.email}`}
                        disabled={pending}
                        onClick={() =>
                          revoke.mutate(invitation.id, {
                            onSuccess: () =>
                              toast({
                                title: 'Invitation withdrawn',
                                description: `${invitation.email} can no longer join.`,
                              }),
                            onError: (error) =>
                              toast({
                                variant: 'destructive',
                                title: 'Error',
                                description: errorText(error, 'Failed to withdraw the invitation'),
                              }),
                          })
                        }
                      >
                        {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <X aria-hidden="true" />}
                        Withdraw
                      </Button>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
