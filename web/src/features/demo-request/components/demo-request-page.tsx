import { Link } from 'react-router-dom';
import { Logo } from '@/components/layout/logo';
import { PlaceholderPage } from '@/components/layout/placeholder-page';
import { Button } from '@/components/ui/button';

export function DemoRequestPage() {
  return (
    <div className="min-h-screen bg-muted/40">
      <header className="border-b border-border bg-background">
        <div className="mx-auto flex max-w-6xl items-center justify-between px-4 py-4 sm:px-6">
          <Link to="/" aria-label="Home" className="rounded-md">
            <Logo />
          </Link>
          <nav aria-label="Account" className="flex items-center gap-2">
            <Button asChild variant="ghost">
              <Link to="/login">Login</Link>
            </Button>
            <Button asChild>
              <Link to="/signup">Sign up</Link>
            </Button>
          </nav>
        </div>
      </header>
      <main>
        <PlaceholderPage title="Request a Demo" description="See how referral automation fits your team." />
      </main>
    </div>
  );
}
