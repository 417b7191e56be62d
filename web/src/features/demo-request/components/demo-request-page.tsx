import { DemoRequest, REFERRAL_SOURCES } from '@app/contracts';
import { CheckCircle2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Logo } from '@/components/layout/logo';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { useSubmitDemoRequest } from '../api/submit-demo-request';

type Values = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  website: string;
  referralSource: string;
};
const EMPTY: Values = { firstName: '', lastName: '', email: '', phone: '', website: '', referralSource: '' };

const FIELDS: Array<{
  key: Exclude<keyof Values, 'referralSource'>;
  label: string;
  type: string;
  autoComplete: string;
  placeholder?: string;
}> = [
  { key: 'firstName', label: 'First Name', type: 'text', autoComplete: 'given-name' },
  { key: 'lastName', label: 'Last Name', type: 'text', autoComplete: 'family-name' },
  { key: 'email', label: 'Work Email', type: 'email', autoComplete: 'email' },
  { key: 'phone', label: 'Phone Number', type: 'tel', autoComplete: 'tel' },
  { key: 'website', label: 'Company Website', type: 'url', autoComplete: 'url', placeholder: 'https://example.com' },
];

/** What is sent: the fields trimmed; referralSource only when chosen. */
export function demoRequestBody(values: Values): DemoRequest {
  const body: DemoRequest = {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    email: values.email.trim(),
    phone: values.phone.trim(),
    website: values.website.trim(),
  };
  if (values.referralSource) body.referralSource = values.referralSource as DemoRequest['referralSource'];
  return body;
}

/** /demo-request (spec 2, 3, 5, 8): the form, then 'Thanks for Your Interest'. */
export function DemoRequestPage() {
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const [submitted, setSubmitted] = useState(false);
  const mutation = useSubmitDemoRequest();

  const set = (key: keyof Values) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [key]: e.target.value }));
    setErrors((current) => ({ ...current, [key]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (mutation.isPending) return;
    const body = demoRequestBody(values);
    const parsed = DemoRequest.safeParse(body);
    if (!parsed.success) {
      const next: Partial<Record<keyof Values, string>> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0]) as keyof Values;
        next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    try {
      await mutation.mutateAsync(body);
      setSubmitted(true);
      toast({ title: 'Success!', description: "Your demo request has been submitted. We'll be in touch soon!" });
    } catch {
      toast({
        variant: 'destructive',
        title: 'Submission failed',
        description: 'There was a problem submitting your request. Please try again.',
      });
    }
  };

  return (
    <div className="min-h-screen bg-muted/40">
      <header className="border-b border-border bg-background">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-2 px-4 py-4 sm:px-6">
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
                <Link to="/">Return to Home</Link>
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
              <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-4 sm:grid-cols-2">
                {FIELDS.map((f) => (
                  <div key={f.key} className={f.key === 'website' || f.key === 'email' ? 'sm:col-span-2' : undefined}>
                    <FormField id={`demo-${f.key}`} label={f.label} error={errors[f.key]}>
                      <Input
                        {...fieldA11y(`demo-${f.key}`, errors[f.key])}
                        type={f.type}
                        autoComplete={f.autoComplete}
                        placeholder={f.placeholder}
                        value={values[f.key]}
                        onChange={set(f.key)}
                      />
                    </FormField>
                  </div>
                ))}
                <div className="sm:col-span-2">
                  <FormField
                    id="demo-referralSource"
                    label="How did you hear about us? (optional)"
                    error={errors.referralSource}
                  >
                    <NativeSelect
                      {...fieldA11y('demo-referralSource', errors.referralSource)}
                      value={values.referralSource}
                      onChange={set('referralSource')}
                    >
                      <option value="">Select an option</option>
                      {REFERRAL_SOURCES.map((source) => (
                        <option key={source} value={source}>
                          {source}
                        </option>
                      ))}
                    </NativeSelect>
                  </FormField>
                </div>
                <Button type="submit" className="sm:col-span-2" disabled={mutation.isPending}>
                  {mutation.isPending ? <Spinner className="size-4 text-current" label="Submitting" /> : null}
                  Request Demo
                </Button>
              </form>
            </CardContent>
          </Card>
        )}
      </main>
    </div>
  );
}
