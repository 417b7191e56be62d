import { Bot, Clock, Handshake, LineChart, MessageSquare, Star, Users } from './icons';
import { AppLink } from '@/lib/navigation';
import * as paths from '@/config/public-paths';
import { LandingLogo as Logo } from './landing-logo';
import { FEATURES, FOOTER, STATS, TESTIMONIALS } from './content';
import { DashboardMock } from './dashboard-mock';
import { HowItWorks } from './how-it-works';
import { Pricing } from './pricing';
import { SiteHeader } from './site-header';
import { btn, container } from './styles';

const FEATURE_ICONS = [Bot, Clock, MessageSquare, Handshake, Users, LineChart];

/** The public landing page (spec 2): signed out, and every unknown signed-out path. */
export function LandingPage() {
  return (
    <div className="min-h-screen bg-background text-foreground">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-background focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <SiteHeader />
      <main id="main">
        <section aria-labelledby="hero-title" className="relative overflow-hidden">
          <div
            className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top,rgba(99,102,241,0.18),transparent_65%)]"
            aria-hidden="true"
          />
          <div className="relative mx-auto max-w-4xl px-4 pt-16 pb-12 text-center sm:px-6 sm:pt-24">
            <p className="mx-auto mb-6 inline-flex rounded-full border border-border bg-background px-3 py-1 text-xs font-medium text-gray-600">
              Your first referral is free · No setup required
            </p>
            <h1 id="hero-title" className="text-4xl font-extrabold tracking-tight text-balance sm:text-6xl">
              Automate Your Client Referrals With AI
            </h1>
            <p className="mx-auto mt-6 max-w-2xl text-lg text-gray-600">
              Turn prospects you cannot serve into warm introductions. The AI finds the partner program that fits,
              drafts the intro, and tracks the commission. You approve every send.
            </p>
            <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
              <AppLink to={paths.signup} className={btn.primaryLg}>
                Get Started Free
              </AppLink>
              <a href="#how-it-works" className={btn.outlineLg}>
                See how it works
              </a>
            </div>
          </div>
          <div className="relative px-4 pb-16 sm:px-6">
            <DashboardMock />
          </div>
        </section>

        <HowItWorks />

        <section id="features" aria-labelledby="features-title" className="scroll-mt-20 py-16 sm:py-20">
          <div className={container}>
            <h2 id="features-title" className="text-center text-3xl font-bold tracking-tight sm:text-4xl">
              Everything you need to refer with confidence
            </h2>
            <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {FEATURES.map(({ title, text }, i) => {
                const Icon = FEATURE_ICONS[i] ?? Bot;
                return (
                  <li key={title} className="rounded-xl border border-border bg-background p-6 shadow-sm">
                    <Icon className="size-6 text-primary" aria-hidden="true" />
                    <h3 className="mt-3 text-lg font-semibold">{title}</h3>
                    <p className="mt-1 text-sm text-gray-600">{text}</p>
                  </li>
                );
              })}
            </ul>
          </div>
        </section>

        <section aria-labelledby="testimonials-title" className="border-t border-border py-16 sm:py-20">
          <div className={container}>
            <h2 id="testimonials-title" className="text-center text-3xl font-bold tracking-tight sm:text-4xl">
              Loved by referrers
            </h2>
            <dl className="mx-auto mt-10 grid max-w-4xl grid-cols-2 gap-6 text-center lg:grid-cols-4">
              {STATS.map((s) => (
                <div key={s.label} className="flex flex-col-reverse">
                  <dt className="mt-1 text-sm text-gray-600">{s.label}</dt>
                  <dd className="text-3xl font-extrabold tracking-tight text-primary">{s.value}</dd>
                </div>
              ))}
            </dl>
            <ul className="mt-12 grid gap-6 lg:grid-cols-3">
              {TESTIMONIALS.map((t) => (
                <li key={t.name} className="flex flex-col rounded-xl border border-border bg-background p-6 shadow-sm">
                  <p className="flex gap-0.5 text-amber-500" role="img" aria-label="5 out of 5 stars">
                    {[0, 1, 2, 3, 4].map((n) => (
                      <Star key={n} className="size-4 fill-current" aria-hidden="true" />
                    ))}
                  </p>
                  <blockquote className="mt-3 flex-1 text-sm">“{t.quote}”</blockquote>
                  <p className="mt-4 text-sm font-semibold">{t.name}</p>
                  <p className="text-xs text-gray-600">{t.role}</p>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <Pricing />

        <section aria-labelledby="cta-title" className="py-16 sm:py-20">
          <div className="mx-auto max-w-3xl px-4 text-center sm:px-6">
            <h2 id="cta-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
              Start earning from every referral
            </h2>
            <p className="mt-3 text-gray-600">Your first referral is free and there is nothing to set up.</p>
            <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
              <AppLink to={paths.signup} className={btn.primaryLg}>
                Start Your Free Trial
              </AppLink>
              <AppLink to={paths.demoRequest} className={btn.outlineLg}>
                Schedule Demo
              </AppLink>
            </div>
          </div>
        </section>
      </main>

      <footer className="border-t border-border bg-muted/40">
        <div className={`${container} grid gap-8 py-12 sm:grid-cols-2 lg:grid-cols-4`}>
          <div>
            <Logo />
            <p className="mt-3 text-sm text-gray-600">Automate your client referrals with AI.</p>
          </div>
          {FOOTER.map((col) => (
            <nav key={col.title} aria-label={col.title}>
              <h2 className="text-sm font-semibold">{col.title}</h2>
              <ul className="mt-3 space-y-2 text-sm">
                {col.links.map((l) => (
                  <li key={l.label}>
                    {'to' in l ? (
                      <AppLink to={l.to} className="rounded text-gray-600 hover:text-foreground hover:underline">
                        {l.label}
                      </AppLink>
                    ) : (
                      <a href={l.href} className="rounded text-gray-600 hover:text-foreground hover:underline">
                        {l.label}
                      </a>
                    )}
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <p className="border-t border-border py-6 text-center text-xs text-gray-600">
          © {new Date().getFullYear()} Referral Hub
        </p>
      </footer>
    </div>
  );
}
