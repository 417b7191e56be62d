import { STATUS_LABELS, type ReferralListItem as Referral } from '@app/contracts';
import { Eye, Mail, PenLine } from 'lucide-react';
import type { KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { destinationCompany, formatDate, leadStatusText, referredName, STATUS_BADGE } from './format';
import { BountyValue } from './referral-sheet';

/** The columns; `wide` ones are left out below md, where the detail sheet shows them (docs/screens.md). */
const columns = [
  { header: 'Destination Company' },
  { header: 'Referred Contact' },
  { header: 'Stage' },
  { header: 'Bounty', wide: true },
  { header: 'Date Submitted' },
  { header: 'Latest Activity', wide: true },
  { header: 'Actions', wide: true },
];

/** A cell: its own padding from md, where rows are table rows; below md the row (a card) holds the padding. */
const cell = 'p-0 align-top md:px-4 md:py-3';
/** A cell of a `wide` column. */
const wideCell = `hidden md:table-cell ${cell}`;
/**
 * Texts people typed, in a column of the table: from md a word breaks only where it cannot fit (an address
 * stays whole), and no wider than 16rem, so a pasted unbroken text wraps instead of pushing the columns after
 * it off screen (its min-content is capped by the max width).
 */
const capped = 'md:max-w-64 md:wrap-break-word';

/**
 * The referrals table. Rows are focusable: a click, Enter or Space opens the detail sheet. From md it is a
 * table (scrolling sideways inside its own region when the screen is narrower than its columns); below md
 * each row is laid out as a card (company, contact, stage, date, one under the other) and the bounty, latest
 * activity and actions are in the detail sheet the row opens. Its cells stay table cells (the headers of the
 * columns left out are left out too, so each cell keeps its header), and the header row is read, not shown.
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
      <table className="w-full caption-bottom text-sm md:min-w-[56rem]">
        <caption className="sr-only">Your referrals. Select a row to see its details and mark milestones.</caption>
        <thead className="sr-only bg-muted/60 text-left md:not-sr-only md:table-header-group">
          <tr>
            {columns.map(({ header, wide }) => (
              <th
                key={header}
                scope="col"
                className={`px-4 py-3 font-medium whitespace-nowrap text-muted-foreground ${wide ? 'hidden md:table-cell' : ''}`}
              >
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
                className="flex cursor-pointer flex-col gap-2 border-border px-4 py-3 transition-colors outline-none not-first:border-t md:table-row md:border-t md:p-0 hover:bg-muted/50 focus-visible:bg-muted/60 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
              >
                <td className={cell}>
                  <div className={`font-medium text-foreground ${capped}`}>{destinationCompany(referral)}</div>
                  <div className={`text-xs text-muted-foreground ${capped}`}>{referral.project.productName}</div>
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
                <td className={cell}>
                  <div className={`font-medium text-foreground ${capped}`}>{name}</div>
                  <div className={`text-xs text-muted-foreground ${capped}`}>{referral.referredEmail}</div>
                </td>
                <td className={`flex flex-wrap items-center gap-x-2 gap-y-1 md:table-cell ${cell}`}>
                  <Badge variant={STATUS_BADGE[referral.status]}>{STATUS_LABELS[referral.status]}</Badge>
                  {referral.lead ? (
                    <div className="text-xs text-muted-foreground md:mt-1 md:whitespace-nowrap">
                      {leadStatusText(referral)}
                    </div>
                  ) : null}
                </td>
                <td className={wideCell}>
                  <BountyValue referral={referral} />
                </td>
                <td className={`text-xs whitespace-nowrap text-muted-foreground md:text-sm md:text-foreground ${cell}`}>
                  <span className="md:hidden">Submitted </span>
                  {formatDate(referral.createdAt)}
                </td>
                <td className={`max-w-56 ${wideCell}`}>
                  <span className="line-clamp-2">{referral.lastActivity.text}</span>
                  <time dateTime={referral.lastActivity.at} className="block text-xs text-muted-foreground">
                    {formatDate(referral.lastActivity.at)}
                  </time>
                  {referral.notes ? (
                    <span className="mt-1 line-clamp-1 text-xs text-muted-foreground">{`Notes: ${referral.notes}`}</span>
                  ) : null}
                </td>
                <td className={wideCell}>
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
