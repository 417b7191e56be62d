import {
  AdminCreateVendorRequest,
  ApproveVendorRequest,
  RevokeVendorRequest,
  type AdminCreateVendorRequest as AdminCreateVendorInput,
  type VendorSummary,
} from '@app/contracts';
import { emailOnDomain } from '@app/domain';
import { BadgeCheck, Loader2, Plus, ShieldOff } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { z } from 'zod';
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
import { Form, FormCheckbox, FormInput, FormTextarea } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { toast } from '@/hooks/use-toast';
import { isApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/dates';
import { errorText } from '@/lib/errors';
import { useAdminCreateVendor } from '../api/admin-create-vendor';
import { useApproveVendor, useRevokeVendor, useVendorClaim } from '../api/approve-vendor';
import { useVendorDirectory } from '../api/vendor-directory';

type Status = 'all' | 'verified' | 'unverified';

export const verificationLabel = (vendor: Pick<VendorSummary, 'verified' | 'verification' | 'revokedAt'>) =>
  !vendor.verified
    ? vendor.revokedAt
      ? 'Verification revoked'
      : 'Not verified'
    : vendor.verification === 'admin'
      ? 'Verified by an administrator'
      : 'Verified by domain';

interface NewVendorValues {
  name: string;
  website: string;
  leadInbox: string;
  approve: boolean;
  note: string;
}
const EMPTY_VENDOR: NewVendorValues = { name: '', website: '', leadInbox: '', approve: false, note: '' };

/** The request the form makes: a blank lead inbox is left out; approving needs a note for the audit log. */
const NewVendorForm = z
  .custom<NewVendorValues>()
  .transform(({ leadInbox, ...rest }): AdminCreateVendorInput => ({
    ...rest,
    ...(leadInbox.trim() ? { leadInbox } : {}),
  }))
  .pipe(AdminCreateVendorRequest)
  .superRefine((request, ctx) => {
    if (request.approve && !request.note)
      ctx.addIssue({ code: 'custom', path: ['note'], message: 'Please say why you approve this vendor' });
  });

/** The administrators' Vendors tab (issue 9): every workspace, approving one with a note, creating one. */
export function VendorsPanel() {
  const [status, setStatus] = useState<Status>('all');
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim(), 300);
  const directory = useVendorDirectory({ status, ...(debounced ? { search: debounced } : {}) });
  const [approving, setApproving] = useState<VendorSummary | null>(null);
  const [revoking, setRevoking] = useState<VendorSummary | null>(null);
  const [creating, setCreating] = useState(false);

  return (
    <div className="grid gap-6 *:min-w-0">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="grid gap-2">
          <Label htmlFor="vendor-status">Show</Label>
          <NativeSelect id="vendor-status" value={status} onChange={(event) => setStatus(event.target.value as Status)}>
            <option value="all">All workspaces</option>
            <option value="verified">Verified</option>
            <option value="unverified">Not verified</option>
          </NativeSelect>
        </div>
        <div className="grid flex-1 gap-2">
          <Label htmlFor="vendor-search">Search</Label>
          <Input
            id="vendor-search"
            type="search"
            value={search}
            placeholder="Name or website"
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        {!creating ? (
          <Button variant="outline" onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" />
            Create a workspace
          </Button>
        ) : null}
      </div>

      {creating ? <CreateVendorCard onDone={() => setCreating(false)} /> : null}

      <div aria-busy={directory.isFetching}>
        {directory.isPending ? (
          <Spinner label="Loading vendor workspaces" />
        ) : directory.isError ? (
          <p className="text-sm text-destructive">{errorText(directory.error, 'Failed to load vendor workspaces')}</p>
        ) : directory.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No vendor workspaces match.</p>
        ) : (
          <div
            className="overflow-x-auto rounded-lg border border-border"
            role="region"
            aria-label="Vendor workspaces"
            tabIndex={0}
          >
            <table className="stack-table w-full text-sm sm:min-w-[40rem]">
              <thead className="bg-muted text-left">
                <tr>
                  {['Name', 'Website', 'Status', 'Members', 'Created', 'Actions'].map((header) => (
                    <th key={header} scope="col" className="p-3 font-medium">
                      {header}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {directory.data.map((vendor) => (
                  <tr key={vendor.id} className="border-t border-border">
                    <td className="p-3 font-medium sm:whitespace-nowrap" data-label="Name">
                      {vendor.name}
                    </td>
                    <td className="p-3 sm:whitespace-nowrap" data-label="Website">
                      {vendor.domain || '—'}
                    </td>
                    <td className="p-3" data-label="Status">
                      <Badge variant={vendor.verified ? 'success' : 'warning'}>{verificationLabel(vendor)}</Badge>
                    </td>
                    <td className="p-3 tabular-nums" data-label="Members">
                      {vendor.members}
                    </td>
                    <td className="p-3 sm:whitespace-nowrap" data-label="Created">
                      {formatDate(vendor.createdAt)}
                    </td>
                    <td className="p-3" data-label="Actions">
                      {!vendor.verified ? (
                        <Button
                          size="sm"
                          variant="outline"
                          onClick={() => setApproving(vendor)}
                          aria-label={`Approve ${vendor.name}`}
                        >
                          <BadgeCheck aria-hidden="true" />
                          Approve
                        </Button>
                      ) : (
                        <Button
                          size="sm"
                          variant="outline"
                          onClick={() => setRevoking(vendor)}
                          aria-label={`Revoke the verification of ${vendor.name}`}
                        >
                          <ShieldOff aria-hidden="true" />
                          Revoke
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>

      <ApproveDialog vendor={approving} onClose={() => setApproving(null)} />
      <RevokeDialog vendor={revoking} onClose={() => setRevoking(null)} />
    </div>
  );
}

/**
 * Who claims a workspace, for the administrator about to vouch for it: each member's address and role, and
 * whether the address is at the workspace's domain (a member at another domain proves nothing about it).
 */
function VendorClaim({ vendorId, domain }: { vendorId: string; domain: string }) {
  const claim = useVendorClaim(vendorId);
  return (
    <section aria-label="Who claims it" className="grid gap-2 text-sm">
      <h3 className="font-semibold">Who claims it</h3>
      {claim.isPending ? (
        <p className="text-muted-foreground">Loading its members…</p>
      ) : claim.isError ? (
        <p role="alert">{errorText(claim.error, 'Failed to load its members')}</p>
      ) : claim.data.members.length === 0 ? (
        <p className="text-muted-foreground">Nobody has joined it yet: it receives no lead until someone does.</p>
      ) : (
        <ul className="grid gap-1" aria-label="Members">
          {claim.data.members.map((member) => (
            <li key={member.userId} className="flex flex-wrap items-center gap-2">
              <span className="wrap-anywhere">{`${member.email} (${member.role}), joined ${formatDate(member.joinedAt)}`}</span>
              {domain ? (
                <Badge variant={emailOnDomain(member.email, domain) ? 'success' : 'warning'}>
                  {emailOnDomain(member.email, domain) ? `At ${domain}` : `Not at ${domain}`}
                </Badge>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ApproveDialog({ vendor, onClose }: { vendor: VendorSummary | null; onClose: () => void }) {
  const approve = useApproveVendor();
  return (
    <NoteDialog
      vendor={vendor}
      onClose={onClose}
      title={`Approve ${vendor?.name}?`}
      description={`It becomes verified by an administrator: it receives leads for ${vendor?.domain || 'its website'}, and its lead criteria and bounties apply. Your note is kept in its audit log.`}
      schema={ApproveVendorRequest}
      action="Approve the vendor"
      note={{
        id: 'approve-note',
        label: 'Why do you approve it?',
        placeholder: 'e.g. Confirmed by phone with their head of partnerships.',
      }}
      submit="Approve"
      failure="Failed to approve the vendor"
      onNote={async (vendorId, note) => {
        const approved = await approve.mutateAsync({ vendorId, note });
        toast({ title: 'Vendor approved', description: `${approved.name} is verified.` });
      }}
    >
      {vendor ? <VendorClaim vendorId={vendor.id} domain={vendor.domain} /> : null}
    </NoteDialog>
  );
}

/** Revoking a verification (a wrong approval, a domain that changed hands): the note goes to the audit log. */
function RevokeDialog({ vendor, onClose }: { vendor: VendorSummary | null; onClose: () => void }) {
  const revoke = useRevokeVendor();
  return (
    <NoteDialog
      vendor={vendor}
      onClose={onClose}
      title={`Revoke the verification of ${vendor?.name}?`}
      description={`It receives no new leads and its lead criteria and bounties stop applying. From then on no workspace of ${vendor?.domain || 'its website'} is verified by its domain, this one or a new one: only an administrator's approval verifies one. The leads and commissions it already has stay. Your note is kept in its audit log.`}
      schema={RevokeVendorRequest}
      action="Revoke the verification"
      note={{
        id: 'revoke-note',
        label: 'Why do you revoke it?',
        placeholder: 'e.g. Approved by mistake: the domain belongs to another company.',
      }}
      submit="Revoke verification"
      destructive
      failure="Failed to revoke the verification"
      onNote={async (vendorId, note) => {
        const revoked = await revoke.mutateAsync({ vendorId, note });
        toast({ title: 'Verification revoked', description: `${revoked.name} is no longer verified.` });
      }}
    />
  );
}

/** An administrator's decision on a workspace, with the note its audit log keeps (approve, revoke). */
function NoteDialog({
  vendor,
  onClose,
  title,
  description,
  schema,
  action,
  note,
  submit,
  destructive = false,
  failure,
  onNote,
  children,
}: {
  vendor: VendorSummary | null;
  onClose: () => void;
  title: string;
  description: string;
  schema: typeof ApproveVendorRequest | typeof RevokeVendorRequest;
  /** The form's accessible name. */
  action: string;
  note: { id: string; label: string; placeholder: string };
  submit: string;
  destructive?: boolean;
  /** The toast's text when the call fails without a message of its own. */
  failure: string;
  onNote: (vendorId: string, note: string) => Promise<void>;
  /** Shown above the note (who claims the workspace). */
  children?: ReactNode;
}) {
  return (
    <Dialog open={vendor !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {children}
        <Form
          schema={schema}
          defaultValues={{ note: '' }}
          aria-label={action}
          className="grid gap-4"
          onSubmit={async ({ note: text }) => {
            if (!vendor) return;
            await onNote(vendor.id, text);
            onClose();
          }}
          onError={(error) => toast({ variant: 'destructive', title: 'Error', description: errorText(error, failure) })}
        >
          {({ formState }) => (
            <>
              <FormTextarea name="note" id={note.id} label={note.label} rows={3} placeholder={note.placeholder} />
              <DialogFooter>
                <DialogClose asChild>
                  <Button variant="outline" disabled={formState.isSubmitting}>
                    Cancel
                  </Button>
                </DialogClose>
                <Button
                  type="submit"
                  variant={destructive ? 'destructive' : 'default'}
                  disabled={formState.isSubmitting}
                >
                  {formState.isSubmitting ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
                  {submit}
                </Button>
              </DialogFooter>
            </>
          )}
        </Form>
      </DialogContent>
    </Dialog>
  );
}

function CreateVendorCard({ onDone }: { onDone: () => void }) {
  const create = useAdminCreateVendor();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Create a workspace for a vendor</CardTitle>
        <CardDescription>
          For a vendor that is not on Referral Hub yet, e.g. to link its program. Its people join it by signing in with
          an address on its website.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form
          schema={NewVendorForm}
          defaultValues={EMPTY_VENDOR}
          aria-label="Create a workspace for a vendor"
          className="grid gap-4"
          onSubmit={async (request) => {
            const vendor = await create.mutateAsync(request);
            toast({
              title: 'Workspace created',
              description: vendor.verified ? `${vendor.name} is verified.` : `${vendor.name} is not verified yet.`,
            });
            onDone();
          }}
          onError={(error, form) => {
            if (isApiError(error, 'WEBMAIL_DOMAIN') || isApiError(error, 'DOMAIN_TAKEN')) {
              form.setError('website', { type: 'server', message: error.message });
              return;
            }
            toast({
              variant: 'destructive',
              title: 'Error',
              description: errorText(error, 'Failed to create the workspace'),
            });
          }}
        >
          {({ formState, watch }) => (
            <>
              <div className="grid gap-4 sm:grid-cols-2">
                <FormInput name="name" id="admin-vendor-name" label="Company name" />
                <FormInput
                  name="website"
                  id="admin-vendor-website"
                  label="Website"
                  inputMode="url"
                  placeholder="acme.com"
                />
              </div>
              <FormInput
                name="leadInbox"
                id="admin-vendor-inbox"
                label="Lead inbox (optional)"
                type="email"
                inputMode="email"
              />
              <FormCheckbox
                name="approve"
                id="admin-vendor-approve"
                label="Approve it now"
                hint="It receives leads as soon as someone can read them: the lead inbox above, or a member who joins. Leave it unchecked to let a member verify it with their address."
              />
              {watch('approve') ? (
                <FormTextarea name="note" id="admin-vendor-note" label="Why do you approve it?" rows={2} />
              ) : null}
              <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                <Button variant="outline" onClick={onDone}>
                  Cancel
                </Button>
                <Button type="submit" disabled={formState.isSubmitting}>
                  {formState.isSubmitting ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
                  Create workspace
                </Button>
              </div>
            </>
          )}
        </Form>
      </CardContent>
    </Card>
  );
}
