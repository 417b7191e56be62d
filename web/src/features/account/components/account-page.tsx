import { NavLink, useLocation, Link } from 'react-router-dom';
import { PlaceholderPage } from '@/components/layout/placeholder-page';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';

interface AccountUser {
  email: string;
  createdAt?: string | null;
}

const TABS = [
  { label: 'Profile', to: '/account' },
  { label: 'Email', to: '/account/email' },
  { label: 'Password', to: '/account/password' },
];

function memberSince(createdAt: string | null | undefined): string {
  if (!createdAt) return 'N/A';
  const date = new Date(createdAt);
  return Number.isNaN(date.getTime()) ? 'N/A' : date.toLocaleDateString(undefined, { dateStyle: 'long' });
}

/** /account, /account/email, /account/password. */
export function AccountPage({ user }: { user: AccountUser | null }) {
  const { pathname } = useLocation();
  if (!user) {
    return (
      <section className="flex flex-1 items-center justify-center px-4 py-16">
        <Card className="w-full max-w-sm text-center">
          <CardHeader>
            <CardTitle>Please log in</CardTitle>
            <CardDescription>You need to be signed in to see your account.</CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild>
              <Link to="/login">Go to Login</Link>
            </Button>
          </CardContent>
        </Card>
      </section>
    );
  }
  return (
    <PlaceholderPage title="My Account" description="Your profile, email settings and password.">
      <nav aria-label="Account sections" className="mb-4 flex gap-1 rounded-lg bg-muted p-1">
        {TABS.map((tab) => (
          <NavLink
            key={tab.to}
            to={tab.to}
            end
            className={({ isActive }) =>
              cn(
                'flex-1 rounded-md px-3 py-1.5 text-center text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                isActive ? 'bg-background text-foreground shadow-sm' : 'text-muted-foreground hover:text-foreground',
              )
            }
          >
            {tab.label}
          </NavLink>
        ))}
      </nav>
      {pathname === '/account' ? (
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-muted-foreground">Email</dt>
            <dd className="font-medium break-all">{user.email}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Member Since</dt>
            <dd className="font-medium">{memberSince(user.createdAt)}</dd>
          </div>
        </dl>
      ) : null}
    </PlaceholderPage>
  );
}
