import { useId, useState, type FormEvent } from 'react';
import { useNavigateTo } from '@/lib/navigation';
import * as paths from '@/config/public-paths';
import { btn, container } from './styles';

type Mode = 'match' | 'direct';

const STEPS = [
  {
    title: 'Submit a client need',
    text: 'Describe what your client is looking for, add optional integrations and urgency, then press Find Partners.',
  },
  {
    title: 'AI finds the best partner',
    text: 'Partner programs are ranked by fit, with the referral percentage you would earn.',
  },
  {
    title: 'Choose and send the referral',
    text: 'Compare the matches and send with one click. Nothing is sent without your approval.',
  },
  {
    title: 'Track your earnings',
    text: 'Follow the referral through each sales stage and see the commission it earns.',
  },
];

const field =
  'mt-1.5 block w-full rounded-md border border-input bg-background px-3 py-2 text-sm shadow-sm outline-none focus-visible:ring-2 focus-visible:ring-ring';

/** How it works: 'Need a Match' (four steps) or 'Send to a Specific Vendor' (a static form; sign-up first). */
export function HowItWorks() {
  const [mode, setMode] = useState<Mode>('match');
  const navigate = useNavigateTo();
  const id = useId();
  const onDirect = (event: FormEvent) => {
    event.preventDefault();
    navigate(paths.signup);
  };
  const tab = (m: Mode, label: string) => (
    <button
      type="button"
      aria-pressed={mode === m}
      onClick={() => setMode(m)}
      className={`rounded-md px-4 py-2 text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-ring ${
        mode === m ? 'bg-background text-foreground shadow-sm' : 'text-gray-600 hover:text-foreground'
      }`}
    >
      {label}
    </button>
  );

  return (
    <section
      id="how-it-works"
      aria-labelledby="how-it-works-title"
      className="scroll-mt-20 border-t border-border bg-muted/40 py-16 sm:py-20"
    >
      <div className={container}>
        <h2 id="how-it-works-title" className="text-center text-3xl font-bold tracking-tight sm:text-4xl">
          How it works
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-center text-gray-600">
          Two ways to refer: let the AI find the partner, or send straight to a vendor you know.
        </p>
        <div
          role="group"
          aria-label="Referral mode"
          className="mx-auto mt-8 flex w-fit flex-wrap justify-center gap-1 rounded-lg border border-border bg-muted p-1"
        >
          {tab('match', 'Need a Match')}
          {tab('direct', 'Send to a Specific Vendor')}
        </div>

        {mode === 'match' ? (
          <ol
            aria-label="Smart match steps"
            className="mx-auto mt-10 grid max-w-5xl gap-4 sm:grid-cols-2 lg:grid-cols-4"
          >
            {STEPS.map((step, i) => (
              <li key={step.title} className="rounded-xl border border-border bg-background p-5 shadow-sm">
                <span
                  aria-hidden="true"
                  className="flex size-8 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground"
                >
                  {i + 1}
                </span>
                <h3 className="mt-3 font-semibold">{step.title}</h3>
                <p className="mt-1 text-sm text-gray-600">{step.text}</p>
              </li>
            ))}
          </ol>
        ) : (
          <form
            onSubmit={onDirect}
            aria-labelledby={`${id}-title`}
            className="mx-auto mt-10 max-w-lg rounded-xl border border-border bg-background p-6 shadow-sm"
          >
            <h3 id={`${id}-title`} className="text-lg font-semibold">
              Send a direct referral
            </h3>
            <p className="mt-1 text-sm text-gray-600">Already know the vendor? Send your client straight to them.</p>
            <div className="mt-5 space-y-4">
              <div>
                <label htmlFor={`${id}-vendor`} className="text-sm font-medium">
                  Vendor
                </label>
                <input id={`${id}-vendor`} name="vendor" placeholder="e.g. HubSpot" className={field} />
              </div>
              <div>
                <label htmlFor={`${id}-client`} className="text-sm font-medium">
                  Client Organization
                </label>
                <input id={`${id}-client`} name="client" placeholder="e.g. Acme Health" className={field} />
              </div>
              <div>
                <label htmlFor={`${id}-notes`} className="text-sm font-medium">
                  Notes <span className="font-normal text-gray-600">(optional)</span>
                </label>
                <textarea id={`${id}-notes`} name="notes" rows={3} className={field} />
              </div>
            </div>
            <div className="mt-6 flex flex-col gap-2 sm:flex-row">
              <button type="submit" className={`${btn.primary} sm:flex-1`}>
                Send Direct Referral
              </button>
              <button type="button" className={`${btn.outline} sm:flex-1`} onClick={() => setMode('match')}>
                Switch to Smart Match
              </button>
            </div>
          </form>
        )}
      </div>
    </section>
  );
}
