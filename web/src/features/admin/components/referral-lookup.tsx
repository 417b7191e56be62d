import { STATUS_LABELS, type AdminReferral } from '@app/contracts';
import { formatCents } from '@app/domain';
import { Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { CommissionList, MilestoneList } from '@/components/money/milestones';
import { Badge } from '@/components/ui/badge';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { formatDate, formatDateTime } from '@/lib/dates';
import { errorText } from '@/lib/errors';
import { useAdminReferral } from '../api/payouts';

/**
 * A referral id as an administrator has it at hand: the number, '#123', 'Referral 123' (as the vendor's lead
 * card shows it), or the referral's link (…/referral/123, the referrer's address bar). Null: none of those.
 */
export function referralIdOf(text: string): string | null {
  const trimmed = text.trim();
  const found = /^(?:referral\s*)?#?\s*(\d{1,12})$/i.exec(trimmed) ?? /\/referral\/(\d{1,12})(?:[/?#]|$)/.exec(trimmed);
  return found ? found[1]! : null;
}

/** The form field of a referral id: any of `referralIdOf`'s forms, read as the digits. */
export const referralIdField = z
  .string()
  .refine((text) => referralIdOf(text) !== null, 'Please enter the referral id or its link')
  .transform((text) => referralIdOf(text)!);

/**
 * Under a form's referral id field (`name`): the referral it names, looked up as the administrator types
 * (debounced), so that they see whose referral it is, its stage and what is already confirmed before they
 * act on it. Announced politely to screen readers.
 */
export function ReferralLookup({ name }: { name: string }) {
  const typed = useWatch({ name }) as string;
  const idText = useDebouncedValue(referralIdOf(typed ?? ''), 300);
  const id = idText === null ? null : Number(idText);
  const lookup = useAdminReferral(id);
  let shown: ReactNode = null;
  if (id !== null && lookup.isPending)
    shown = (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <Loader2 aria-hidden="true" className="size-4 animate-spin" />
        {`Looking up referral ${id}…`}
      </p>
    );
  else if (id !== null && lookup.isError)
    shown = <p className="text-sm text-destructive">{errorText(lookup.error, 'Failed to look up the referral')}</p>;
  else if (id !== null && lookup.data === null)
    shown = <p className="text-sm text-destructive">{`There is no referral ${id}.`}</p>;
  else if (id !== null && lookup.data) shown = <ReferralSummary referral={lookup.data} />;
  return (
    <div aria-live="polite" className="empty:hidden">
      {shown}
    </div>
  );
}

function ReferralSummary({ referral }: { referral: AdminReferral }) {
  const client = referral.clientName ? `${referral.clientName} (${referral.referredName})` : referral.referredName;
  const vendor = referral.lead
    ? `${referral.lead.vendorName} (workspace)`
    : `${referral.companyName} (not on the platform)`;
  const heading = `Referral ${referral.id}`;
  return (
    <section aria-label={heading} className="grid gap-3 rounded-lg border border-border bg-muted/30 p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-semibold">{heading}</h3>
        <Badge variant="secondary">{STATUS_LABELS[referral.status]}</Badge>
      </div>
      <dl className="grid gap-x-3 gap-y-1 sm:grid-cols-[8rem_1fr]">
        <dt className="text-muted-foreground">Client</dt>
        <dd className="wrap-anywhere">{`${client} · ${referral.referredEmail}`}</dd>
        <dt className="text-muted-foreground">Vendor</dt>
        <dd className="wrap-anywhere">{`${vendor} · ${referral.productName}`}</dd>
        <dt className="text-muted-foreground">Referred by</dt>
        <dd className="wrap-anywhere">
          {`${referral.referrer.name} (${referral.referrer.email}) on ${formatDate(referral.createdAt)}`}
        </dd>
        <dt className="text-muted-foreground">Earned</dt>
        <dd>{formatCents(referral.money.earnedCents, referral.money.currency)}</dd>
      </dl>
      {referral.lead ? (
        <>
          <h4 className="font-medium">Milestones</h4>
          <MilestoneList money={referral.money} label={`Milestones of ${heading}`} />
        </>
      ) : null}
      <h4 className="font-medium">Commissions (the referrer's share)</h4>
      <CommissionList
        commissions={referral.money.commissions}
        amount="referrer"
        label={`Commissions of ${heading}`}
        empty="No commission yet."
      />
      {referral.ledger.length ? (
        <details className="rounded-lg border border-border">
          <summary className="cursor-pointer rounded-lg p-2 font-medium focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
            {`Ledger (${referral.ledger.length} ${referral.ledger.length === 1 ? 'entry' : 'entries'})`}
          </summary>
          <ol className="grid gap-1 border-t border-border p-2">
            {referral.ledger.map((entry) => (
              <li key={entry.id} className="wrap-anywhere">
                <time dateTime={entry.at} className="text-muted-foreground">
                  {formatDateTime(entry.at)}
                </time>
                {` · ${entry.kind} ${formatCents(entry.amountCents, referral.money.currency)} · ${entry.actorName}`}
                {entry.reason ? ` · ${entry.reason}` : null}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </section>
  );
}
