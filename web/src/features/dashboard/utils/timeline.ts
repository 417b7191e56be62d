import { STATUS_LABELS, type Referral } from '@app/contracts';
import { referredName } from '../components/format';

export interface TimelineEntry {
  key: string;
  title: string;
  description: string;
  at: string;
  kind: 'created' | 'status' | 'email';
}

/**
 * The activity timeline, oldest first: the creation ('Referral submitted' / 'Initial referral created', spec
 * 2), every recorded status change, and the intro email once sent.
 */
export function buildTimeline(referral: Referral): TimelineEntry[] {
  const creation = referral.history.find((change) => change.from === null);
  const entries: TimelineEntry[] = [
    {
      key: 'created',
      title: 'Referral submitted',
      description: 'Initial referral created',
      at: creation?.at ?? referral.createdAt,
      kind: 'created',
    },
  ];
  referral.history.forEach((change, index) => {
    if (change.from === null) return;
    entries.push({
      key: `status-${index}`,
      title: `Moved to ${STATUS_LABELS[change.to]}`,
      description: `From ${STATUS_LABELS[change.from]}`,
      at: change.at,
      kind: 'status',
    });
  });
  if (referral.emailSentAt) {
    entries.push({
      key: 'email',
      title: 'Intro email sent',
      description: `Introduction sent to ${referredName(referral)}`,
      at: referral.emailSentAt,
      kind: 'email',
    });
  }
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => Date.parse(a.entry.at) - Date.parse(b.entry.at) || a.index - b.index)
    .map(({ entry }) => entry);
}
