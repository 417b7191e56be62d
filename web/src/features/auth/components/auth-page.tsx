import { CheckCircle2 } from 'lucide-react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Logo } from '@/components/layout/logo';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { AuthForm, type AuthMode } from './auth-form';

const HIGHLIGHTS = [
  'Introduce non-fit leads to vendors who can actually help them',
  'Earn cash rewards or qualified leads in return',
  'Nothing is sent without your approval',
];

/** /login and /signup: the mode follows the route; switching mode keeps what was typed. */
export function AuthPage() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const mode: AuthMode = pathname === paths.signup ? 'register' : 'login';
  const otherPath = mode === 'login' ? paths.signup : paths.login;

  return (
    <div className="dark min-h-screen bg-background text-foreground">
      <div
        className="pointer-events-none fixed inset-0 bg-[radial-gradient(ellipse_at_top,rgba(99,102,241,0.25),transparent_60%)]"
        aria-hidden="true"
      />
      <header className="relative mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-5 sm:px-6">
        <Link to={paths.home} className="rounded-md" aria-label="Home">
          <Logo textClassName="hidden sm:inline" />
        </Link>
        <nav aria-label="Account" className="flex items-center gap-2">
          <Button asChild variant="ghost">
            <Link to={paths.demoRequest}>Get a demo</Link>
          </Button>
          <Button asChild>
            <Link to={otherPath} replace>
              {mode === 'login' ? 'Sign up' : 'Login'}
            </Link>
          </Button>
        </nav>
      </header>
      {/* On a phone the card comes right after the headline, the highlights after it (issue 12: the form is
          on screen without scrolling at 390 x 844). */}
      <main className="relative mx-auto grid max-w-6xl items-center gap-x-10 gap-y-6 px-4 pt-2 pb-16 sm:px-6 sm:pt-6 lg:grid-cols-2 lg:grid-rows-[auto_auto] lg:gap-y-8 lg:pt-16">
        <section className="lg:col-start-1 lg:row-start-1 lg:self-end">
          <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-5xl">
            Turn non-fit prospects into warm referrals
          </h1>
          <p className="mt-3 max-w-xl text-base text-muted-foreground sm:mt-4 sm:text-lg">
            Introduce the leads you can't serve to vendors who can help them, and earn cash or qualified leads for every
            introduction.
          </p>
        </section>
        <div className="flex justify-center lg:col-start-2 lg:row-span-2 lg:row-start-1 lg:justify-end">
          <AuthForm mode={mode} onSwitchMode={() => navigate(otherPath, { replace: true })} />
        </div>
        <ul className="grid gap-3 lg:col-start-1 lg:row-start-2 lg:self-start">
          {HIGHLIGHTS.map((text) => (
            <li key={text} className="flex items-start gap-3 text-muted-foreground">
              <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
              <span>{text}</span>
            </li>
          ))}
        </ul>
      </main>
    </div>
  );
}
