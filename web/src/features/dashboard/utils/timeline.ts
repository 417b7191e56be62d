import { STATUS_LABELS, type ReferralListItem as Referral, type TimelineEntry } from '@app/contracts';
import { referredName } from '../components/format';

/**
 * The referral's timeline as the server keeps it (issue 9: submitted, routed, the vendor's decision, the
 * intro, stage changes). A referral read without one gets it rebuilt from its history: the creation ('Referral
 * submitted' / 'Initial referral created', spec 2), every recorded status change, and the intro email once sent.
 */
export function buildTimeline(referral: Referral): TimelineEntry[] {
  if (referral.timeline.length > 0) return referral.timeline;
  const creation = referral.history.find((change) => change.from === null);
  const entries: TimelineEntry[] = [
    {
      at: creation?.at ?? referral.createdAt,
      actor: 'referrer',
      kind: 'submitted',
      text: 'Initial referral created',
    },
  ];
  for (const change of referral.history) {
    if (change.from === null) continue;
    entries.push({
      at: change.at,
      actor: 'referrer',
      kind: 'stage_changed',
      text: `Moved to ${STATUS_LABELS[change.to]} from ${STATUS_LABELS[change.from]}`,
    });
  }
  if (referral.emailSentAt) {
    entries.push({
      at: referral.emailSentAt,
      actor: 'referrer',
      kind: 'intro_sent',
      text: `Introduction sent to ${referredName(referral)}`,
    });
  }
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => Date.parse(a.entry.at) - Date.parse(b.entry.at) || a.index - b.index)
    .map(({ entry }) => entry);
}
