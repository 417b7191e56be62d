import { ACCOUNT_MESSAGES, ChangeEmailRequest, ChangePasswordRequest } from '@app/contracts';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import { useChangeEmail, useChangePassword } from '../api/account';

interface AccountUser {
  email: string;
  createdAt?: string | null;
}

type Tab = 'profile' | 'email' | 'password';

const TAB_PATHS: Record<Tab, string> = { profile: '/account', email: '/account/email', password: '/account/password' };

export function tabForPath(pathname: string): Tab {
  if (pathname.startsWith('/account/email')) return 'email';
  if (pathname.startsWith('/account/password')) return 'password';
  return 'profile';
}

export function memberSince(createdAt: string | null | undefined): string {
  if (!createdAt) return 'N/A';
  const date = new Date(createdAt);
  return Number.isNaN(date.getTime()) ? 'N/A' : date.toLocaleDateString('en-US', { dateStyle: 'long' });
}

/** The first message per field of a failed schema check. */
function fieldErrors(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? '');
    errors[key] ??= issue.message;
  }
  return errors;
}

/** /account, /account/email, /account/password: the tab follows the route and a tab change navigates. */
export function AccountPage({ user }: { user: AccountUser | null }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
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
  const tab = tabForPath(pathname);
  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">My Account</h1>
      <p className="mt-1 text-muted-foreground">Your profile, email settings and password.</p>
      <Tabs value={tab} onValueChange={(next) => navigate(TAB_PATHS[next as Tab])} className="mt-6">
        <TabsList className="grid w-full grid-cols-3">
          <TabsTrigger value="profile">Profile</TabsTrigger>
          <TabsTrigger value="email">Email</TabsTrigger>
          <TabsTrigger value="password">Password</TabsTrigger>
        </TabsList>
        <TabsContent value="profile" className="grid gap-6">
          <ProfileTab user={user} onEditEmail={() => navigate(TAB_PATHS.email)} />
        </TabsContent>
        <TabsContent value="email">
          <EmailTab currentEmail={user.email} />
        </TabsContent>
        <TabsContent value="password">
          <PasswordTab />
        </TabsContent>
      </Tabs>
    </section>
  );
}

function ProfileTab({ user, onEditEmail }: { user: AccountUser; onEditEmail: () => void }) {
  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle>Profile</CardTitle>
          <CardDescription>Your account details.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <FormField id="profile-email" label="Email">
            <Input id="profile-email" value={user.email} readOnly />
          </FormField>
          <div className="grid gap-1 text-sm">
            <span className="font-medium">Member Since</span>
            <span data-testid="member-since" className="text-muted-foreground">
              {memberSince(user.createdAt)}
            </span>
          </div>
        </CardContent>
        <CardFooter>
          <Button variant="outline" onClick={onEditEmail}>
            Edit Email Settings
          </Button>
        </CardFooter>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Lead Criteria</CardTitle>
          <CardDescription>The industries, company sizes and roles you want referrals for.</CardDescription>
        </CardHeader>
        <CardFooter>
          <Button asChild variant="outline">
            <Link to="/onboarding">Edit Lead Criteria</Link>
          </Button>
        </CardFooter>
      </Card>
    </>
  );
}

function EmailTab({ currentEmail }: { currentEmail: string }) {
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mutation = useChangeEmail();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (mutation.isPending) return;
    const parsed = ChangeEmailRequest.safeParse({ newEmail, password });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    try {
      await mutation.mutateAsync({ newEmail: newEmail.trim(), password });
      setNewEmail('');
      setPassword('');
      toast({ title: 'Check your new inbox', description: ACCOUNT_MESSAGES.emailChangeSent });
    } catch (error) {
      toast({ variant: 'destructive', title: 'Error', description: errorText(error, 'Failed to change email') });
    }
  };

  return (
    <Card>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <CardHeader>
          <CardTitle>Email</CardTitle>
          <CardDescription>
            Your email changes once you open the verification link we send to the new address.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <FormField id="current-email" label="Current Email">
            <Input id="current-email" value={currentEmail} readOnly />
          </FormField>
          <FormField id="new-email" label="New Email" error={errors.newEmail}>
            <Input
              {...fieldA11y('new-email', errors.newEmail)}
              type="email"
              autoComplete="email"
              value={newEmail}
              onChange={(e) => setNewEmail(e.target.value)}
            />
          </FormField>
          <FormField id="email-password" label="Confirm Password" error={errors.password}>
            <Input
              {...fieldA11y('email-password', errors.password)}
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </FormField>
        </CardContent>
        <CardFooter>
          <Button type="submit" disabled={mutation.isPending}>
            {mutation.isPending ? <Spinner className="size-4 text-current" label="Saving" /> : null}
            Update Email
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

function PasswordTab() {
  const [values, setValues] = useState({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mutation = useChangePassword();
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (mutation.isPending) return;
    const parsed = ChangePasswordRequest.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    try {
      const answer = await mutation.mutateAsync(values);
      setValues({ currentPassword: '', newPassword: '', confirmPassword: '' });
      toast({ title: 'Password Updated', description: answer?.message || ACCOUNT_MESSAGES.passwordChanged });
    } catch (error) {
      toast({ variant: 'destructive', title: 'Error', description: errorText(error, 'Failed to change password') });
    }
  };

  const fields: Array<{ key: keyof typeof values; id: string; label: string; autoComplete: string }> = [
    { key: 'currentPassword', id: 'current-password', label: 'Current Password', autoComplete: 'current-password' },
    { key: 'newPassword', id: 'new-password', label: 'New Password', autoComplete: 'new-password' },
    { key: 'confirmPassword', id: 'confirm-password', label: 'Confirm New Password', autoComplete: 'new-password' },
  ];

  return (
    <Card>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <CardHeader>
          <CardTitle>Password</CardTitle>
          <CardDescription>Changing your password signs out your other sessions.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {fields.map((f) => (
            <FormField key={f.key} id={f.id} label={f.label} error={errors[f.key]}>
              <Input
                {...fieldA11y(f.id, errors[f.key])}
                type="password"
                autoComplete={f.autoComplete}
                value={values[f.key]}
                onChange={set(f.key)}
              />
            </FormField>
          ))}
        </CardContent>
        <CardFooter>
          <Button type="submit" disabled={mutation.isPending}>
            {mutation.isPending ? <Spinner className="size-4 text-current" label="Saving" /> : null}
            Update Password
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
