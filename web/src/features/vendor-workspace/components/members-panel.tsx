import type { Vendor } from '@app/contracts';
import { possessive } from '@app/domain';
import { LogOut, UserMinus, Users } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import { useRemoveMember } from '../api/remove-member';
import { ROLE_LABELS } from '../utils/forms';

type Member = Vendor['members'][number];

/** Members and their roles; owners remove others, everyone may leave (a workspace keeps one owner). */
export function MembersPanel({ vendor, userId, onLeft }: { vendor: Vendor; userId: string; onLeft: () => void }) {
  const remove = useRemoveMember(vendor.id);
  const [confirming, setConfirming] = useState<Member | null>(null);
  const owner = vendor.role === 'owner';
  const owners = vendor.members.filter((member) => member.role === 'owner').length;
  const leaving = confirming?.userId === userId;
  const who = (member: Member) => member.name.trim() || member.email;

  // Awaited, not mutate's callbacks: leaving removes the workspace (and this panel) before they would run.
  const confirm = async () => {
    if (!confirming) return;
    const member = confirming;
    try {
      await remove.mutateAsync({ userId: member.userId, leaving });
      toast(
        leaving
          ? { title: 'You left the workspace', description: `You are no longer a member of ${vendor.name}.` }
          : { title: 'Member removed', description: `${who(member)} is no longer a member of ${vendor.name}.` },
      );
      setConfirming(null);
      if (leaving) onLeft();
    } catch (error) {
      setConfirming(null);
      toast({ variant: 'destructive', title: 'Error', description: errorText(error, 'Failed to remove the member') });
    }
  };

  return (
    <Card role="region" aria-labelledby="members-title">
      <CardHeader>
        <CardTitle id="members-title" className="flex items-center gap-2 text-lg">
          <Users className="size-5 text-primary" aria-hidden="true" />
          Members
        </CardTitle>
        <CardDescription>
          Members manage the lead criteria, bounties and leads. Owners also invite and remove members.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y divide-border rounded-lg border border-border" aria-label="Members">
          {vendor.members.map((member) => {
            const self = member.userId === userId;
            return (
              <li key={member.userId} className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center">
                <div className="min-w-0 flex-1">
                  <p className="font-medium wrap-anywhere">
                    {who(member)}
                    {self ? <span className="font-normal text-muted-foreground"> (you)</span> : null}
                  </p>
                  <p className="text-sm break-all text-muted-foreground">{member.email}</p>
                </div>
                <div className="flex items-center gap-2">
                  <Badge variant={member.role === 'owner' ? 'default' : 'secondary'}>{ROLE_LABELS[member.role]}</Badge>
                  {self && member.role === 'owner' && owners === 1 ? (
                    // No Leave that can only be refused: the server keeps a workspace's last owner (LAST_OWNER).
                    <span className="text-xs text-muted-foreground">The only owner: invite another owner to leave</span>
                  ) : self ? (
                    <Button variant="ghost" size="sm" onClick={() => setConfirming(member)}>
                      <LogOut aria-hidden="true" />
                      Leave
                    </Button>
                  ) : owner ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Remove ${who(member)}`}
                      onClick={() => setConfirming(member)}
                    >
                      <UserMinus aria-hidden="true" />
                      Remove
                    </Button>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      </CardContent>

      <Dialog open={confirming !== null} onOpenChange={(open) => !open && !remove.isPending && setConfirming(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>
              {leaving ? `Leave ${vendor.name}?` : `Remove ${confirming ? who(confirming) : ''}?`}
            </DialogTitle>
            <DialogDescription>
              {leaving
                ? 'You will no longer see its leads or change its lead criteria and bounties. An owner can invite you again.'
                : `They will no longer see ${possessive(vendor.name)} leads or change its lead criteria and bounties.`}
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline" disabled={remove.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button variant="destructive" onClick={() => void confirm()} disabled={remove.isPending}>
              {remove.isPending ? <Spinner className="size-4 text-current" label="Saving" /> : null}
              {leaving ? 'Leave workspace' : 'Remove member'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
