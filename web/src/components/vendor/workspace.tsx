import type { Vendor } from '@app/contracts';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { paths } from '@/config/paths';
import { withVendor } from '@/lib/my-vendors';
import { cn } from '@/lib/utils';

/*
 * The pieces every vendor screen shares (issue 9): which workspace it works on, and why it cannot be used
 * yet. One module, no icons of its own: the lead criteria and bounty pages load it from the entry chunk's
 * route table, whose size the landing page budget counts.
 */

export type WorkspaceProblem = 'none' | 'unverified' | 'not-member';

/** Which vendor workspace a screen works on, for users who belong to several (nothing for one). */
export function WorkspacePicker({
  vendors,
  value,
  onChange,
  id = 'workspace-picker',
  className,
}: {
  vendors: readonly Vendor[];
  value: string | undefined;
  onChange: (vendorId: string) => void;
  id?: string;
  className?: string;
}) {
  if (vendors.length < 2) return null;
  return (
    <div className={cn('grid gap-2 sm:max-w-sm', className)}>
      <Label htmlFor={id}>Workspace</Label>
      <NativeSelect id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {vendors.map((vendor) => (
          <option key={vendor.id} value={vendor.id}>
            {vendor.verified ? vendor.name : `${vendor.name} (not verified)`}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

/**
 * Why a vendor screen cannot be used yet, and the way forward: create a workspace, verify it, or open one's
 * own. `action` completes "Only a verified workspace can …" (e.g. "save lead criteria").
 */
export function WorkspaceNotice({
  problem,
  vendor,
  action,
  alert = false,
}: {
  problem: WorkspaceProblem;
  vendor?: { id: string; name: string; domain: string; revokedAt?: string | null } | null;
  action: string;
  /** Announce it at once (it follows a refused save). */
  alert?: boolean;
}) {
  const content =
    problem === 'none'
      ? {
          title: 'You have no vendor workspace yet',
          text: `A vendor workspace is your company's space on Referral Hub. Create one to ${action}. If you only refer clients, you do not need one.`,
          link: { to: paths.vendor, label: 'Create a vendor workspace' },
        }
      : problem === 'unverified' && vendor?.revokedAt
        ? {
            title: `The verification of ${vendor.name} was revoked`,
            text: `Only a verified workspace can ${action}. A Referral Hub administrator revoked this one's verification: only an administrator can approve it again.`,
            link: { to: withVendor(paths.vendor, vendor.id), label: 'Your vendor workspace' },
          }
        : problem === 'unverified'
          ? {
              title: `${vendor?.name ?? 'This workspace'} is not verified yet`,
              text: `Only a verified workspace can ${action}. Sign in with an address at ${vendor?.domain || 'your company website'}, or ask an administrator to approve it.`,
              link: { to: withVendor(paths.vendor, vendor?.id), label: 'Verify your workspace' },
            }
          : {
              title: 'You are not a member of this workspace',
              text: `Only members of a vendor workspace can ${action}.`,
              link: { to: paths.vendor, label: 'Your vendor workspaces' },
            };
  return (
    <Card role={alert ? 'alert' : 'region'} aria-label={alert ? undefined : content.title}>
      <CardContent className="p-6">
        <div className="grid gap-2 border-l-4 border-primary pl-4">
          <p className="font-semibold">{content.title}</p>
          <p className="text-sm text-muted-foreground">{content.text}</p>
          <div>
            <Button asChild size="sm">
              <Link to={content.link.to}>{content.link.label}</Link>
            </Button>
          </div>
        </div>
      </CardContent>
    </Card>
  );
}

/**
 * Which workspace a page edits (a picker for users with several, else its name), and why it cannot save when
 * it cannot: no workspace, not verified, not a member.
 */
export function WorkspaceBar({
  vendors,
  vendor,
  onSelect,
  problem,
  action,
  alert = false,
}: {
  vendors: readonly Vendor[];
  vendor: Vendor | null;
  onSelect: (vendorId: string) => void;
  problem: WorkspaceProblem | null;
  /** Completes "Only a verified workspace can …". */
  action: string;
  alert?: boolean;
}) {
  return (
    <div className="mt-4 grid gap-4">
      {vendors.length > 1 ? (
        <WorkspacePicker vendors={vendors} value={vendor?.id} onChange={onSelect} />
      ) : vendor ? (
        <p className="text-sm text-muted-foreground">
          For <span className="font-medium text-foreground">{vendor.name}</span>
        </p>
      ) : null}
      {problem ? <WorkspaceNotice problem={problem} vendor={vendor} action={action} alert={alert} /> : null}
    </div>
  );
}
