import type { IcpFit } from '@app/contracts';
import { Check, CircleHelp, X } from 'lucide-react';
import { cn } from '@/lib/utils';

export type FitVerdict = 'fits' | 'fails' | 'unknown' | 'none';

/** The fit in one word: any clear fail fails; nothing failing but something unknown is unknown. */
export function fitVerdict(fit: IcpFit | null | undefined): FitVerdict {
  if (!fit) return 'none';
  if (fit.fails.length > 0) return 'fails';
  if (fit.unknown.length > 0) return 'unknown';
  return fit.fits.length > 0 ? 'fits' : 'none';
}

export const FIT_LABELS: Record<FitVerdict, string> = {
  fits: 'Fits the profile',
  fails: 'Does not fit the profile',
  unknown: 'Fits what is known',
  none: 'No profile set',
};

const GROUPS = [
  { key: 'fits', title: 'Fits', Icon: Check, tone: 'text-emerald-700' },
  { key: 'fails', title: 'Does not fit', Icon: X, tone: 'text-destructive' },
  { key: 'unknown', title: 'Not known yet', Icon: CircleHelp, tone: 'text-muted-foreground' },
] as const;

/**
 * How a client meets a vendor's Ideal Customer Profile, criterion by criterion, in the server's plain words:
 * what fits, what does not, and what the referral does not say.
 */
export function IcpFitList({ fit, className }: { fit: IcpFit; className?: string }) {
  return (
    <div className={cn('grid gap-3 text-sm', className)}>
      {GROUPS.map(({ key, title, Icon, tone }) =>
        fit[key].length > 0 ? (
          <div key={key} className="grid gap-1">
            <p className="font-medium">{title}</p>
            <ul className="grid gap-1" aria-label={title}>
              {fit[key].map((reason) => (
                <li key={reason} className="flex items-start gap-2">
                  <Icon className={cn('mt-0.5 size-4 shrink-0', tone)} aria-hidden="true" />
                  <span>{reason}</span>
                </li>
              ))}
            </ul>
          </div>
        ) : null,
      )}
    </div>
  );
}
