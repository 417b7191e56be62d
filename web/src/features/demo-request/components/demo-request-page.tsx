import { DemoRequest, REFERRAL_SOURCES } from '@app/contracts';
import { CheckCircle2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Logo } from '@/components/layout/logo';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Form, FormInput, FormSelect } from '@/components/ui/form';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { useSubmitDemoRequest } from '../api/submit-demo-request';

const FIELDS: Array<{
  name: 'firstName' | 'lastName' | 'email' | 'phone' | 'website';
  label: string;
  type: string;
  autoComplete: string;
  placeholder?: string;
}> = [
  { name: 'firstName', label: 'First Name', type: 'text', autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last Name', type: 'text', autoComplete: 'family-name' },
  { name: 'email', label: 'Work Email', type: 'email', autoComplete: 'email' },
  { name: 'phone', label: 'Phone Number', type: 'tel', autoComplete: 'tel' },
  { name: 'website', label: 'Company Website', type: 'url', autoComplete: 'url', placeholder: 'https://example.com' },
];

/** Nothing typed yet; the source is left out until one is chosen. */
const EMPTY: DemoRequest = { firstName: '', lastName: '', email: '', phone: '', website: '' };

/** /demo-request (spec 2, 3, 5, 8): the form, then 'Thanks for Your Interest'. */
export function DemoRequestPage() {
  const [submitted, setSubmitted] = useState(false);
  const mutation = useSubmitDemoRequest();

  const submit = async (values: DemoRequest) => {
    await mutation.mutateAsync(values);
    setSubmitted(true);
    toast({ title: 'Success!', description: "Your demo request has been submitted. We'll be in touch soon!" });
  };
  const onError = () =>
    toast({
      variant: 'destructive',
      title: 'Submission failed',
      description: 'There was a problem submitting your request. Please try again.',
    });

  return (
    <div className="min-h-screen bg-muted/40">
      <header className="border-b border-border bg-background">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-2 px-4 py-4 sm:px-6">
          <Link to={paths.home} aria-label="Home" className="rounded-md">
            <Logo />
          </Link>
          <nav aria-label="Account" className="flex items-center gap-2">
            <Button asChild variant="ghost">
              <Link to={paths.login}>Login</Link>
            </Button>
            <Button asChild>
              <Link to={paths.signup}>Sign up</Link>
            </Button>
          </nav>
        </div>
      </header>
      <main className="mx-auto w-full max-w-2xl px-4 py-10 sm:px-6 sm:py-16">
        {submitted ? (
          <Card className="text-center">
            <CardHeader className="items-center">
              <CheckCircle2 className="size-12 text-primary" aria-hidden="true" />
              <CardTitle className="text-2xl">Thanks for Your Interest</CardTitle>
              <CardDescription>Our team will reach out shortly to schedule your demo.</CardDescription>
            </CardHeader>
            <CardContent>
              <Button asChild>
                <Link to={paths.home}>Return to Home</Link>
              </Button>
            </CardContent>
          </Card>
        ) : (
          <Card>
            <CardHeader>
              <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Request a Demo</h1>
              <CardDescription>See how referral automation fits your team. Tell us a little about you.</CardDescription>
            </CardHeader>
            <CardContent>
              <Form
                schema={DemoRequest}
                defaultValues={EMPTY}
                onSubmit={submit}
                onError={onError}
                className="grid gap-4 sm:grid-cols-2"
              >
                {FIELDS.map((f) => (
                  <div
                    key={f.name}
                    className={f.name === 'website' || f.name === 'email' ? 'sm:col-span-2' : undefined}
                  >
                    <FormInput
                      name={f.name}
                      id={`demo-${f.name}`}
                      label={f.label}
                      type={f.type}
                      autoComplete={f.autoComplete}
                      placeholder={f.placeholder}
                    />
                  </div>
                ))}
                <div className="sm:col-span-2">
                  <FormSelect
                    name="referralSource"
                    id="demo-referralSource"
                    label="How did you hear about us? (optional)"
                  >
                    <option value="">Select an option</option>
                    {REFERRAL_SOURCES.map((source) => (
                      <option key={source} value={source}>
                        {source}
                      </option>
                    ))}
                  </FormSelect>
                </div>
                <Button type="submit" className="sm:col-span-2" disabled={mutation.isPending}>
                  {mutation.isPending ? <Spinner className="size-4 text-current" label="Submitting" /> : null}
                  Request Demo
                </Button>
              </Form>
            </CardContent>
          </Card>
        )}
      </main>
    </div>
  );
}
