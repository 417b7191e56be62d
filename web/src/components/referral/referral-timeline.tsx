import type { TimelineEntry } from '@app/contracts';
import { ArrowRight, CheckCircle2, CircleDot, Mail, Send, XCircle } from 'lucide-react';
import { formatDateTime } from '@/lib/dates';

/** What each kind of entry is called on screen; the server's `text` says the rest in its words. */
const TITLES: Record<string, string> = {
  submitted: 'Referral submitted',
  routed: "Sent to the vendor's lead inbox",
  not_routed: 'Not routed to a vendor',
  intro_sent: 'Intro email sent',
  accepted: 'Lead accepted',
  declined: 'Lead declined',
  stage_changed: 'Stage changed',
};

function EntryIcon({ kind }: { kind: string }) {
  const className = 'size-3.5';
  if (kind === 'intro_sent') return <Mail className={className} />;
  if (kind === 'routed') return <Send className={className} />;
  if (kind === 'accepted') return <CheckCircle2 className={className} />;
  if (kind === 'declined') return <XCircle className={className} />;
  if (kind === 'stage_changed') return <ArrowRight className={className} />;
  return <CircleDot className={className} />;
}

/**
 * A referral's timeline as both sides see it (issue 9), oldest first: what happened, who did it in the
 * server's words, and when.
 */
export function ReferralTimeline({
  entries,
  label = 'Activity timeline',
}: {
  entries: TimelineEntry[];
  label?: string;
}) {
  const sorted = entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => Date.parse(a.entry.at) - Date.parse(b.entry.at) || a.index - b.index)
    .map(({ entry }) => entry);
  return (
    <ol className="grid gap-4 border-l border-border pl-5" aria-label={label}>
      {sorted.map((entry, index) => {
        const title = TITLES[entry.kind] ?? entry.text;
        return (
          <li key={`${entry.at}-${entry.kind}-${index}`} className="relative">
            <span
              className="absolute top-0.5 -left-[1.72rem] flex size-4 items-center justify-center rounded-full bg-background text-primary"
              aria-hidden="true"
            >
              <EntryIcon kind={entry.kind} />
            </span>
            <p className="text-sm font-medium">{title}</p>
            {entry.text && entry.text !== title ? (
              <p className="text-sm whitespace-pre-wrap text-muted-foreground">{entry.text}</p>
            ) : null}
            <p className="text-xs text-muted-foreground">
              <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
            </p>
          </li>
        );
      })}
    </ol>
  );
}
