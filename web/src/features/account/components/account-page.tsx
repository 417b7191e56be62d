import { ACCOUNT_MESSAGES, ChangeEmailRequest, ChangePasswordRequest } from '@app/contracts';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Form, FormInput } from '@/components/ui/form';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import { useChangeEmail, useChangePassword } from '../api/account';
import { memberSince, TAB_PATHS, tabForPath, type Tab } from '../utils/tabs';

interface AccountUser {
  email: string;
  createdAt?: string | null;
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
              <Link to={paths.login}>Go to Login</Link>
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
          {/* Read-only values read as text, not as inputs that cannot be typed in (issue 12). */}
          <dl className="grid gap-4 text-sm">
            <div className="grid gap-1">
              <dt className="font-medium">Email</dt>
              <dd data-testid="profile-email" className="break-all text-muted-foreground">
                {user.email}
              </dd>
            </div>
            <div className="grid gap-1">
              <dt className="font-medium">Member Since</dt>
              <dd data-testid="member-since" className="text-muted-foreground">
                {memberSince(user.createdAt)}
              </dd>
            </div>
          </dl>
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
            <Link to={paths.onboarding}>Edit Lead Criteria</Link>
          </Button>
        </CardFooter>
      </Card>
    </>
  );
}

const toastFailure = (fallback: string) => (error: unknown) =>
  toast({ variant: 'destructive', title: 'Error', description: errorText(error, fallback) });

function EmailTab({ currentEmail }: { currentEmail: string }) {
  const mutation = useChangeEmail();
  return (
    <Card>
      <Form
        schema={ChangeEmailRequest}
        defaultValues={{ newEmail: '', password: '' }}
        onSubmit={async (values, form) => {
          await mutation.mutateAsync(values);
          form.reset();
          toast({ title: 'Check your new inbox', description: ACCOUNT_MESSAGES.emailChangeSent });
        }}
        onError={toastFailure('Failed to change email')}
      >
        <CardHeader>
          <CardTitle>Email</CardTitle>
          <CardDescription>
            Your email changes once you open the verification link we send to the new address.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <dl className="grid gap-1 text-sm">
            <dt className="font-medium">Current Email</dt>
            <dd data-testid="current-email" className="break-all text-muted-foreground">
              {currentEmail}
            </dd>
          </dl>
          <FormInput name="newEmail" id="new-email" label="New Email" type="email" autoComplete="email" />
          <FormInput
            name="password"
            id="email-password"
            label="Confirm Password"
            type="password"
            autoComplete="current-password"
          />
        </CardContent>
        <CardFooter>
          <Button type="submit" disabled={mutation.isPending}>
            {mutation.isPending ? <Spinner className="size-4 text-current" label="Saving" /> : null}
            Update Email
          </Button>
        </CardFooter>
      </Form>
    </Card>
  );
}

const PASSWORD_FIELDS = [
  { name: 'currentPassword', id: 'current-password', label: 'Current Password', autoComplete: 'current-password' },
  { name: 'newPassword', id: 'new-password', label: 'New Password', autoComplete: 'new-password' },
  { name: 'confirmPassword', id: 'confirm-password', label: 'Confirm New Password', autoComplete: 'new-password' },
] as const;

function PasswordTab() {
  const mutation = useChangePassword();
  return (
    <Card>
      <Form
        schema={ChangePasswordRequest}
        defaultValues={{ currentPassword: '', newPassword: '', confirmPassword: '' }}
        onSubmit={async (values, form) => {
          const answer = await mutation.mutateAsync(values);
          form.reset();
          toast({ title: 'Password Updated', description: answer.message || ACCOUNT_MESSAGES.passwordChanged });
        }}
        onError={toastFailure('Failed to change password')}
      >
        <CardHeader>
          <CardTitle>Password</CardTitle>
          <CardDescription>Changing your password signs out your other sessions.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {PASSWORD_FIELDS.map((field) => (
            <FormInput key={field.name} {...field} type="password" />
          ))}
        </CardContent>
        <CardFooter>
          <Button type="submit" disabled={mutation.isPending}>
            {mutation.isPending ? <Spinner className="size-4 text-current" label="Saving" /> : null}
            Update Password
          </Button>
        </CardFooter>
      </Form>
    </Card>
  );
}
