import { ERRORS, type ReferralFit } from '@app/contracts';
import { possessive } from '@app/domain';
import { ArrowRight, CircleAlert, Inbox, Send, Sparkles } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { IcpFitList } from '@/components/referral/icp-fit';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import type { DiscoverState } from '@/lib/referral-flow';

export type FitState =
  { status: 'idle' } | { status: 'checking' } | { status: 'failed' } | { status: 'ready'; answer: ReferralFit };

/** Where the referral goes (issue 9), in the words the issue gives. */
export const routedText = (vendor: string) => `Routed to ${possessive(vendor)} lead inbox`;
/** A clear fail: the vendor is on the platform, but this client does not reach its inbox. */
export const notRoutedText = (vendor: string) => `Not routed to ${possessive(vendor)} lead inbox`;
export const notOnPlatformText = (vendor: string) =>
  `${vendor} is not on Referral Hub yet: the intro goes to your client only`;

/**
 * Before submitting: where the referral goes and, criterion by criterion, how the client fits the vendor's
 * ideal customer profile. A clear fail (or the server's refusal, `refused`) says why the referral cannot be
 * routed and offers Smart Match instead.
 */
export function FitPanel({
  state,
  refused,
  vendorLabel,
  discover,
}: {
  state: FitState;
  /** The reasons the server gave when it refused the referral (ICP_MISMATCH), for the current client. */
  refused: string[] | null;
  /** The destination company, when the vendor is not on the platform. */
  vendorLabel: string;
  /** What Smart Match starts from. */
  discover: DiscoverState;
}) {
  const answer = state.status === 'ready' ? state.answer : null;
  const reasons = refused ?? (answer && !answer.routable ? (answer.fit?.fails ?? []) : null);

  return (
    <section
      aria-labelledby="fit-title"
      aria-live="polite"
      aria-busy={state.status === 'checking'}
      className="grid gap-3 rounded-lg border border-border bg-muted/40 p-4"
    >
      <h3 id="fit-title" className="flex items-center gap-2 text-sm font-semibold">
        <Inbox className="size-4 text-primary" aria-hidden="true" />
        Where this referral goes
      </h3>
      {state.status === 'idle' ? (
        <p className="text-sm text-muted-foreground">
          Enter the client's organization to see where this referral goes and how the client fits.
        </p>
      ) : null}
      {state.status === 'checking' ? (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner className="size-4" label="Checking" />
          Checking where this referral goes…
        </p>
      ) : null}
      {state.status === 'failed' ? (
        <p className="text-sm text-muted-foreground">
          We could not check where this referral goes. You can still submit it.
        </p>
      ) : null}
      {answer ? (
        <>
          <p className="flex items-start gap-2 text-sm font-medium">
            <Send className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
            {answer.vendor
              ? reasons
                ? notRoutedText(answer.vendor.name)
                : routedText(answer.vendor.name)
              : notOnPlatformText(vendorLabel)}
          </p>
          {answer.fit ? (
            <IcpFitList fit={answer.fit} />
          ) : answer.vendor ? (
            <p className="text-sm text-muted-foreground">
              {answer.vendor.name} has not set an ideal customer profile: any client can be sent.
            </p>
          ) : null}
        </>
      ) : null}
      {reasons ? (
        <div role="alert" className="grid gap-3 rounded-md border border-destructive/40 bg-red-50 p-3 text-sm">
          <p className="flex items-start gap-2 font-medium text-red-900">
            <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {ERRORS.ICP_MISMATCH.message}
          </p>
          {reasons.length > 0 ? (
            <ul className="grid list-disc gap-1 pl-10 text-red-900" aria-label="Why it cannot be routed">
              {reasons.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
          ) : null}
          <div>
            <Button asChild size="sm" variant="outline" className="h-auto min-h-8 py-1.5 whitespace-normal">
              <Link to={paths.discover} state={discover}>
                <Sparkles aria-hidden="true" />
                Find a better match with Smart Match
                <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
