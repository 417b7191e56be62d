import { Bot, Clock, Handshake, LineChart, Menu, MessageSquare, Users, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Logo, PRODUCT_NAME } from '@/components/layout/logo';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

const ANCHORS = [
  { href: '#how-it-works', label: 'How it works' },
  { href: '#features', label: 'Features' },
  { href: '#pricing', label: 'Pricing' },
];

const FEATURES = [
  { icon: Bot, title: 'AI-Powered Matching', text: 'Find the partner programs that fit each client need best.' },
  { icon: Clock, title: '24/7 Automation', text: 'Referral forms and intros are prepared while you work.' },
  { icon: MessageSquare, title: 'Smart Communication', text: 'Introduction emails drafted for you to review and send.' },
  { icon: Handshake, title: 'Quality Partnerships', text: 'Vendors only receive prospects that match their profile.' },
  { icon: Users, title: 'Relationship Management', text: 'Keep track of who you referred, where and when.' },
  { icon: LineChart, title: 'Success Tracking', text: 'Follow every referral from tee-up to closed-won.' },
];

/** The public landing page (signed out, and every unknown signed-out path). */
export function LandingPage() {
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <div className="min-h-screen bg-background">
      <header className="sticky top-0 z-40 border-b border-border bg-background/90 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
          <Link to="/" aria-label="Home" className="rounded-md">
            <Logo />
          </Link>
          <nav aria-label="Main" className="hidden items-center gap-6 md:flex">
            {ANCHORS.map((a) => (
              <a key={a.href} href={a.href} className="rounded text-sm font-medium text-muted-foreground hover:text-foreground">
                {a.label}
              </a>
            ))}
          </nav>
          <div className="hidden items-center gap-2 md:flex">
            <Button asChild variant="ghost">
              <Link to="/login">Login</Link>
            </Button>
            <Button asChild>
              <Link to="/signup">Get Started</Link>
            </Button>
          </div>
          <Button
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
          </Button>
        </div>
        {menuOpen ? (
          <nav id="mobile-menu" aria-label="Mobile" className="border-t border-border px-4 py-3 md:hidden">
            <ul className="grid gap-1">
              {ANCHORS.map((a) => (
                <li key={a.href}>
                  <a href={a.href} onClick={() => setMenuOpen(false)} className="block rounded-md px-3 py-2 text-sm font-medium hover:bg-muted">
                    {a.label}
                  </a>
                </li>
              ))}
              <li>
                <Link to="/login" className="block rounded-md px-3 py-2 text-sm font-medium hover:bg-muted">
                  Login
                </Link>
              </li>
              <li>
                <Link to="/signup" className="block rounded-md px-3 py-2 text-sm font-medium text-primary hover:bg-muted">
                  Get Started
                </Link>
              </li>
            </ul>
          </nav>
        ) : null}
      </header>

      <main>
        <section className="relative overflow-hidden">
          <div className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top,rgba(99,102,241,0.18),transparent_65%)]" aria-hidden="true" />
          <div className="relative mx-auto max-w-4xl px-4 pt-20 pb-16 text-center sm:px-6 sm:pt-28">
            <p className="mx-auto mb-6 inline-flex rounded-full border border-border bg-background px-3 py-1 text-xs font-medium text-muted-foreground">
              First referral free · No setup
            </p>
            <h1 className="text-4xl font-extrabold tracking-tight text-balance sm:text-6xl">
              Automate Your Client Referrals With AI
            </h1>
            <p className="mx-auto mt-6 max-w-2xl text-lg text-muted-foreground">
              Refer your clients' unmet needs to vendors who can serve them and earn a share of the referral fee. You approve
              every send.
            </p>
            <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
              <Button asChild size="lg">
                <Link to="/signup">Get Started</Link>
              </Button>
              <Button asChild size="lg" variant="outline">
                <Link to="/login">Login</Link>
              </Button>
            </div>
          </div>
        </section>

        <section id="how-it-works" className="scroll-mt-20 border-t border-border bg-muted/40 py-16">
          <div className="mx-auto max-w-6xl px-4 sm:px-6">
            <h2 className="text-center text-3xl font-bold tracking-tight">How it works</h2>
            <ol className="mx-auto mt-10 grid max-w-4xl gap-4 sm:grid-cols-2 lg:grid-cols-4">
              {['Submit a client need', 'AI finds the best partner', 'Choose and send the referral', 'Track your earnings'].map((step, i) => (
                <li key={step} className="rounded-xl border border-border bg-background p-5 shadow-sm">
                  <span className="flex size-8 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground">
                    {i + 1}
                  </span>
                  <p className="mt-3 font-medium">{step}</p>
                </li>
              ))}
            </ol>
          </div>
        </section>

        <section id="features" className="scroll-mt-20 py-16">
          <div className="mx-auto max-w-6xl px-4 sm:px-6">
            <h2 className="text-center text-3xl font-bold tracking-tight">Features</h2>
            <div className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {FEATURES.map(({ icon: Icon, title, text }) => (
                <Card key={title}>
                  <CardHeader>
                    <Icon className="size-6 text-primary" aria-hidden="true" />
                    <CardTitle className="text-lg">{title}</CardTitle>
                    <CardDescription>{text}</CardDescription>
                  </CardHeader>
                </Card>
              ))}
            </div>
          </div>
        </section>

        <section id="pricing" className="scroll-mt-20 border-t border-border bg-muted/40 py-16">
          <div className="mx-auto max-w-3xl px-4 text-center sm:px-6">
            <h2 className="text-3xl font-bold tracking-tight">Pricing</h2>
            <p className="mt-3 text-muted-foreground">Start free: your first referral costs nothing. Full plans arrive with a later release.</p>
            <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
              <Button asChild size="lg">
                <Link to="/signup">Start Your Free Trial</Link>
              </Button>
              <Button asChild size="lg" variant="outline">
                <Link to="/demo-request">Schedule Demo</Link>
              </Button>
            </div>
          </div>
        </section>
      </main>

      <footer className="border-t border-border py-8 text-center text-sm text-muted-foreground">
        © {new Date().getFullYear()} {PRODUCT_NAME}
      </footer>
    </div>
  );
}
