import { STATUS_LABELS, type ReferralListItem as Referral } from '@app/contracts';
import { Eye, Mail, PenLine } from 'lucide-react';
import type { KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { destinationCompany, formatDate, leadStatusText, referredName, STATUS_BADGE } from './format';
import { BountyValue } from './referral-sheet';

const headers = [
  'Destination Company',
  'Referred Contact',
  'Stage',
  'Bounty',
  'Date Submitted',
  'Latest Activity',
  'Actions',
];

/**
 * The referrals table. Rows are focusable: a click, Enter or Space opens the detail sheet. On narrow screens
 * the table scrolls sideways inside its own region.
 */
export function ReferralsTable({ referrals, onOpen }: { referrals: Referral[]; onOpen: (referral: Referral) => void }) {
  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, referral: Referral) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onOpen(referral);
    }
  };

  return (
    <div
      className="overflow-x-auto rounded-xl border border-border bg-card"
      role="region"
      aria-label="Referrals"
      tabIndex={0}
    >
      <table className="w-full min-w-[56rem] caption-bottom text-sm">
        <caption className="sr-only">Your referrals. Select a row to see its details and mark milestones.</caption>
        <thead className="bg-muted/60 text-left">
          <tr>
            {headers.map((header) => (
              <th key={header} scope="col" className="px-4 py-3 font-medium whitespace-nowrap text-muted-foreground">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {referrals.map((referral) => {
            const name = referredName(referral);
            return (
              <tr
                key={referral.id}
                tabIndex={0}
                onClick={() => onOpen(referral)}
                onKeyDown={(event) => onKeyDown(event, referral)}
                aria-label={[
                  name,
                  destinationCompany(referral),
                  STATUS_LABELS[referral.status],
                  leadStatusText(referral),
                  referral.awaitingApproval ? 'Draft awaiting your approval' : '',
                ]
                  .filter(Boolean)
                  .join(', ')}
                className="cursor-pointer border-t border-border transition-colors outline-none hover:bg-muted/50 focus-visible:bg-muted/60 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
              >
                <td className="px-4 py-3 align-top">
                  <div className="font-medium text-foreground">{destinationCompany(referral)}</div>
                  <div className="text-xs text-muted-foreground">{referral.project.productName}</div>
                  {referral.awaitingApproval ? (
                    <Link
                      to={paths.referralDraft(referral.id)}
                      onClick={(event) => event.stopPropagation()}
                      className="mt-1 flex w-fit items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 underline-offset-4 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                    >
                      <PenLine className="size-3" aria-hidden="true" />
                      Draft awaiting your approval
                    </Link>
                  ) : null}
                </td>
                <td className="px-4 py-3 align-top">
                  <div className="font-medium text-foreground">{name}</div>
                  <div className="text-xs break-all text-muted-foreground">{referral.referredEmail}</div>
                </td>
                <td className="px-4 py-3 align-top">
                  <Badge variant={STATUS_BADGE[referral.status]}>{STATUS_LABELS[referral.status]}</Badge>
                  {referral.lead ? (
                    <div className="mt-1 text-xs whitespace-nowrap text-muted-foreground">
                      {leadStatusText(referral)}
                    </div>
                  ) : null}
                </td>
                <td className="px-4 py-3 align-top">
                  <BountyValue referral={referral} />
                </td>
                <td className="px-4 py-3 align-top whitespace-nowrap">{formatDate(referral.createdAt)}</td>
                <td className="max-w-56 px-4 py-3 align-top">
                  <span className="line-clamp-2">{referral.lastActivity.text}</span>
                  <time dateTime={referral.lastActivity.at} className="block text-xs text-muted-foreground">
                    {formatDate(referral.lastActivity.at)}
                  </time>
                </td>
                <td className="px-4 py-3 align-top">
                  <div className="flex items-center gap-1">
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`View details for ${name}`}
                      onClick={(event) => {
                        event.stopPropagation();
                        onOpen(referral);
                      }}
                    >
                      <Eye aria-hidden="true" />
                      View
                    </Button>
                    <Button asChild variant="ghost" size="sm">
                      <Link
                        to={paths.referralDraft(referral.id)}
                        aria-label={`Intro email for ${name}`}
                        onClick={(event) => event.stopPropagation()}
                      >
                        <Mail aria-hidden="true" />
                        Email
                      </Link>
                    </Button>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
