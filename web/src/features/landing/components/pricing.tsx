import { Check } from './icons';
import { useState } from 'react';
import { AppLink } from '@/lib/navigation';
import { FAQ, PLANS, type Billing } from './content';
import { btn, container } from './styles';

/** Pricing (spec 9): Monthly/Annual toggle, 'Save 16%', three plans, and the fee FAQ (native details/summary). */
export function Pricing() {
  const [billing, setBilling] = useState<Billing>('monthly');
  const option = (value: Billing, label: string) => (
    <button
      type="button"
      aria-pressed={billing === value}
      onClick={() => setBilling(value)}
      className={`rounded-md px-4 py-2 text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-ring ${
        billing === value ? 'bg-background text-foreground shadow-sm' : 'text-gray-600 hover:text-foreground'
      }`}
    >
      {label}
    </button>
  );

  return (
    <section
      id="pricing"
      aria-labelledby="pricing-title"
      className="scroll-mt-20 border-t border-border bg-muted/40 py-16 sm:py-20"
    >
      <div className={container}>
        <h2 id="pricing-title" className="text-center text-3xl font-bold tracking-tight sm:text-4xl">
          Simple, transparent pricing
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-center text-gray-600">
          Your first referral is free on every plan. No setup.
        </p>
        <div className="mt-8 flex flex-wrap items-center justify-center gap-3">
          <div
            role="group"
            aria-label="Billing period"
            className="flex gap-1 rounded-lg border border-border bg-muted p-1"
          >
            {option('monthly', 'Monthly')}
            {option('annual', 'Annual')}
          </div>
          <span className="rounded-full bg-green-100 px-3 py-1 text-xs font-semibold text-green-800">Save 16%</span>
        </div>

        <ul className="mx-auto mt-10 grid max-w-5xl gap-6 lg:grid-cols-3">
          {PLANS.map((plan) => {
            const price = billing === 'monthly' ? plan.monthly : plan.annual;
            return (
              <li
                key={plan.name}
                aria-labelledby={`plan-${plan.name}`}
                className={`relative flex flex-col rounded-2xl border bg-background p-6 shadow-sm ${
                  plan.highlighted ? 'border-primary ring-2 ring-primary' : 'border-border'
                }`}
              >
                {plan.badge ? (
                  <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-primary px-3 py-1 text-xs font-semibold text-primary-foreground">
                    {plan.badge}
                  </span>
                ) : null}
                <h3 id={`plan-${plan.name}`} className="text-lg font-semibold">
                  {plan.name}
                </h3>
                <p className="mt-4 flex items-baseline gap-1" data-testid={`price-${plan.name}`}>
                  <span className="text-4xl font-extrabold tracking-tight">{price === 0 ? 'Free' : `$${price}`}</span>
                  {price === 0 ? null : <span className="text-sm text-gray-600">/month</span>}
                </p>
                {/* "/month" is beside the price: the line under it says only how it is billed (issue 12). */}
                <p className="mt-1 h-5 text-xs text-gray-600">
                  {price === 0 ? 'Free forever' : billing === 'annual' ? 'billed annually' : 'billed monthly'}
                </p>
                <p className="mt-4 text-sm font-medium">{plan.referrals}</p>
                <ul className="mt-4 flex-1 space-y-2 text-sm">
                  {plan.features.map((f) => (
                    <li key={f} className="flex gap-2">
                      <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                      {f}
                    </li>
                  ))}
                </ul>
                <p className="mt-5 rounded-md bg-muted px-3 py-2 text-sm font-medium">{plan.keeps}</p>
                <AppLink to={plan.cta.to} className={`${plan.highlighted ? btn.primary : btn.outline} mt-5 w-full`}>
                  {plan.cta.label}
                </AppLink>
              </li>
            );
          })}
        </ul>

        <div id="faq" className="mx-auto mt-16 max-w-3xl scroll-mt-20">
          <h3 className="text-center text-2xl font-bold tracking-tight">Fees and billing FAQ</h3>
          <div className="mt-6 divide-y divide-border rounded-xl border border-border bg-background">
            {FAQ.map((item) => (
              <details key={item.q} className="group px-5 py-4">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded font-medium outline-none focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden">
                  {item.q}
                  <span
                    aria-hidden="true"
                    className="text-xl leading-none text-gray-600 transition-transform group-open:rotate-45"
                  >
                    +
                  </span>
                </summary>
                <p className="mt-3 text-sm text-gray-600">{item.a}</p>
              </details>
            ))}
          </div>
        </div>
      </div>
    </section>
  );
}
