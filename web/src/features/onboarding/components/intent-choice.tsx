import type { UserIntent } from '@app/contracts';
import { Building2, Handshake, Repeat } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import { cn } from '@/lib/utils';
import { useSetIntent } from '../api/set-intent';

export const INTENT_HEADING = 'How will you use Referral Hub?';

/** The first screen of each choice: a referrer searches; a vendor (or both) sets up the workspace first. */
export const FIRST_SCREEN: Record<UserIntent, string> = {
  refer: paths.home,
  vendor: paths.vendor,
  both: paths.vendor,
};

const CHOICES: Array<{ intent: UserIntent; title: string; text: string; Icon: typeof Handshake }> = [
  {
    intent: 'refer',
    title: 'I refer clients',
    text: 'Introduce people who need a product to the vendors who sell it, and earn bounties as deals progress.',
    Icon: Handshake,
  },
  {
    intent: 'vendor',
    title: 'I receive referrals',
    text: "Set up your company's workspace, the customers you want and the bounties you pay for warm leads.",
    Icon: Building2,
  },
  {
    intent: 'both',
    title: 'Both',
    text: 'Set up your vendor workspace first, then refer clients from the home screen whenever you like.',
    Icon: Repeat,
  },
];

/**
 * /onboarding for a user who has not said what they came for (issue 12): one choice, stored with the user
 * (it survives reloads and other devices), then the first screen of that choice.
 */
export function IntentChoice() {
  const navigate = useNavigate();
  const save = useSetIntent();
  const choose = (intent: UserIntent) => {
    save.mutate(intent, {
      onSuccess: () => navigate(FIRST_SCREEN[intent], { replace: true }),
      onError: (error) =>
        toast({ variant: 'destructive', title: 'Error', description: errorText(error, 'Failed to save your choice') }),
    });
  };
  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-8 sm:py-12">
      <h1 className="text-3xl font-bold tracking-tight text-balance">{INTENT_HEADING}</h1>
      <p className="mt-2 text-muted-foreground">Choose what fits; you can do the rest later from the menu.</p>
      <ul className="mt-6 grid gap-4 sm:grid-cols-3">
        {CHOICES.map(({ intent, title, text, Icon }) => (
          <li key={intent} className="grid">
            <button
              type="button"
              onClick={() => choose(intent)}
              disabled={save.isPending}
              aria-describedby={`intent-${intent}-text`}
              className={cn(
                'grid content-start gap-2 rounded-xl border bg-card p-5 text-left shadow-sm transition-colors',
                'hover:border-primary focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                'disabled:cursor-not-allowed disabled:opacity-60',
              )}
            >
              <span className="flex items-center gap-2 text-lg font-semibold">
                {save.isPending && save.variables === intent ? (
                  <Spinner className="size-5 text-current" label="Saving" />
                ) : (
                  <Icon className="size-5 text-primary" aria-hidden="true" />
                )}
                {title}
              </span>
              <span id={`intent-${intent}-text`} className="text-sm text-muted-foreground">
                {text}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
