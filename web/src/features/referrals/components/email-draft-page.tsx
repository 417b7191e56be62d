import { normalizeRecipients, SendEmailRequest, type EmailDraft, type Referral } from '@app/contracts';
import { ArrowLeft, Clock, Eye, MailCheck, PencilLine, RefreshCw, SearchX, Send } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PageSpinner, Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { errorText, serverMessage } from '@/lib/errors';
import { isDraftNotReady, UnexpectedDraftError, UNEXPECTED_DRAFT, useEmailDraft } from '../api/get-email-draft';
import { useReferral } from '../api/get-referral';
import { useSendEmail } from '../api/send-email';
import { GoBackButton, InvalidReferral, StateCard } from './referral-states';
import { isReferralId } from './messages';

export const RECIPIENT_REQUIRED = 'At least one recipient is required';
export const SEND_FAILED = 'Failed to send email';
export const GET_DRAFT_FAILED = 'Failed to get email draft';

/** Recipient text fields: comma-separated, trimmed, empties dropped (spec 5). */
export const parseRecipients = (text: string): string[] => normalizeRecipients(text);
export const recipientsText = (list: readonly string[]): string => list.join(', ');

/** /referral/{id}/email-draft (spec 2): loading, not found, not ready (polled), failed, editor, sent. */
export function EmailDraftPage() {
  const { id } = useParams();
  if (!isReferralId(id)) return <InvalidReferral />;
  return <EmailDraftScreen key={id} id={id} />;
}

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

function EmailDraftScreen({ id }: { id: string }) {
  const referralQuery = useReferral(id);
  const draftQuery = useEmailDraft(id);
  const [sent, setSent] = useState(false);

  const referralError = referralQuery.error;
  const draftError = draftQuery.error;

  // Spec 8: failed calls toast a destructive 'Error' with the server's text (not for 'not found' / 'not ready',
  // which the screen itself says).
  useEffect(() => {
    if (!referralError || isNotFound(referralError)) return;
    toast({ variant: 'destructive', title: 'Error', description: errorText(referralError, 'Failed to load referral') });
  }, [referralError]);
  useEffect(() => {
    if (!draftError || isNotFound(draftError)) return;
    toast({
      variant: 'destructive',
      title: 'Error',
      description:
        draftError instanceof UnexpectedDraftError ? UNEXPECTED_DRAFT : errorText(draftError, GET_DRAFT_FAILED),
    });
  }, [draftError]);

  if (isNotFound(referralError) || (isNotFound(draftError) && serverMessage(draftError) === 'Referral not found')) {
    return (
      <StateCard
        title="Referral Not Found"
        icon={<SearchX className="size-10 text-muted-foreground" aria-hidden="true" />}
      >
        <p className="text-muted-foreground">
          We couldn't find this referral. It may have been removed, or the link is wrong.
        </p>
        <BackToDashboard />
      </StateCard>
    );
  }
  if (referralError) return <LoadFailed text={errorText(referralError, 'Failed to load referral')} />;
  if (draftError && isDraftNotReady(draftError)) {
    return (
      <StateCard title="Email Draft Not Ready" icon={<Clock className="size-10 text-primary" aria-hidden="true" />}>
        <p className="text-muted-foreground">
          Your intro email is still being prepared. This page checks again every few seconds.
        </p>
        <div className="flex flex-col gap-2 sm:flex-row">
          <BackToDashboard />
          <Button onClick={() => void draftQuery.refetch()} disabled={draftQuery.isFetching}>
            <RefreshCw className={draftQuery.isFetching ? 'animate-spin' : undefined} aria-hidden="true" />
            Refresh
          </Button>
        </div>
      </StateCard>
    );
  }
  if (draftError) {
    return (
      <LoadFailed
        text={draftError instanceof UnexpectedDraftError ? UNEXPECTED_DRAFT : errorText(draftError, GET_DRAFT_FAILED)}
      />
    );
  }
  if (referralQuery.isPending || draftQuery.isPending) {
    return (
      <div className="flex flex-1 flex-col items-center justify-center gap-2">
        <PageSpinner label="Loading your email draft" />
        <p className="-mt-[20vh] text-sm text-muted-foreground" aria-hidden="true">
          Loading your email draft
        </p>
      </div>
    );
  }

  const referral = referralQuery.data;
  if (sent || referral.emailSentAt) return <EmailSent referral={referral} />;
  return <DraftEditor id={id} referral={referral} draft={draftQuery.data.emailDraft} onSent={() => setSent(true)} />;
}

function BackToDashboard() {
  return (
    <Button asChild variant="outline">
      <Link to="/dashboard">
        <ArrowLeft aria-hidden="true" />
        Back to Dashboard
      </Link>
    </Button>
  );
}

function LoadFailed({ text }: { text: string }) {
  return (
    <StateCard title="Failed to load email draft">
      <p className="text-muted-foreground">{text}</p>
      <GoBackButton />
    </StateCard>
  );
}

function EmailSent({ referral }: { referral: Referral }) {
  return (
    <StateCard title="Email Sent!" icon={<MailCheck className="size-12 text-emerald-600" aria-hidden="true" />}>
      <p className="text-muted-foreground">
        Your introduction of {referral.referredFirstName} {referral.referredLastName} is on its way. Follow the referral
        on your Tee ups dashboard.
      </p>
      <Button asChild>
        <Link to="/dashboard">Return to Dashboard</Link>
      </Button>
    </StateCard>
  );
}

type FieldName = 'subject' | 'body' | 'to' | 'cc' | 'bcc';
type FieldErrors = Partial<Record<FieldName, string>>;

interface DraftValues {
  subject: string;
  body: string;
  to: string;
  cc: string;
  bcc: string;
}

/** Checks the edited draft with the server's schema; the recipient rule of spec 5 first. */
export function validateDraft(values: DraftValues): { errors: FieldErrors; request?: SendEmailRequest } {
  const to = parseRecipients(values.to);
  const request: SendEmailRequest = {
    subject: values.subject,
    body: values.body,
    recipients: { to, cc: parseRecipients(values.cc), bcc: parseRecipients(values.bcc) },
  };
  const errors: FieldErrors = {};
  const parsed = SendEmailRequest.safeParse(request);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [first, second] = issue.path;
      const name = (first === 'recipients' ? second : first) as FieldName | undefined;
      if (name && !errors[name]) errors[name] = issue.message;
    }
  }
  if (to.length === 0) errors.to = RECIPIENT_REQUIRED;
  return Object.keys(errors).length > 0 ? { errors } : { errors, request };
}

function DraftEditor({
  id,
  referral,
  draft,
  onSent,
}: {
  id: string;
  referral: Referral;
  draft: EmailDraft;
  onSent: () => void;
}) {
  const navigate = useNavigate();
  const sendEmail = useSendEmail(id);
  const formId = useId();
  const [tab, setTab] = useState('edit');
  const [values, setValues] = useState<DraftValues>(() => ({
    subject: draft.subject,
    body: draft.body,
    to: recipientsText(draft.recipients.to),
    cc: recipientsText(draft.recipients.cc),
    bcc: recipientsText(draft.recipients.bcc),
  }));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const company = referral.project.companyName || referral.company;
  const name = `${referral.referredFirstName} ${referral.referredLastName}`.trim();

  const update = (field: FieldName, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    // Validated on Send, then again on every change.
    if (submitted) setErrors(validateDraft(next).errors);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    const { errors: found, request } = validateDraft(values);
    setErrors(found);
    if (!request) {
      setTab('edit');
      return;
    }
    try {
      const answer = await sendEmail.mutateAsync(request);
      if (answer && answer.success === false) throw new Error(answer.message || SEND_FAILED);
      toast({ title: 'Success', description: 'Email sent successfully!' });
      onSent();
    } catch (error) {
      toast({ variant: 'destructive', title: 'Error', description: errorText(error, SEND_FAILED) });
    }
  };

  const preview = {
    to: parseRecipients(values.to),
    cc: parseRecipients(values.cc),
    bcc: parseRecipients(values.bcc),
  };

  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 sm:py-10">
      <Link
        to="/dashboard"
        className="inline-flex items-center gap-1.5 rounded text-sm font-medium text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to Dashboard
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight">Review Your Intro Email</h1>
      <Card className="mt-6">
        <CardHeader className="pb-4">
          <CardTitle className="text-lg">Introduction</CardTitle>
          <CardDescription>Check the draft, edit anything you like, then send it.</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3 text-sm sm:grid-cols-2">
            <div>
              <dt className="font-medium text-muted-foreground">Referred contact</dt>
              <dd className="text-base font-semibold">{name}</dd>
            </div>
            <div>
              <dt className="font-medium text-muted-foreground">Company</dt>
              <dd className="text-base font-semibold">{company}</dd>
            </div>
          </dl>
        </CardContent>
      </Card>

      <form id={formId} noValidate onSubmit={onSubmit} aria-label="Intro email" className="mt-6">
        <Tabs value={tab} onValueChange={setTab}>
          <TabsList aria-label="Email draft view">
            <TabsTrigger value="edit">
              <PencilLine aria-hidden="true" />
              Edit
            </TabsTrigger>
            <TabsTrigger value="preview">
              <Eye aria-hidden="true" />
              Preview
            </TabsTrigger>
          </TabsList>
          <TabsContent value="edit">
            <Card>
              <CardContent className="grid gap-5 pt-6">
                <FormField id="email-to" label="To" error={errors.to}>
                  <Input
                    placeholder="name@company.com, other@company.com"
                    value={values.to}
                    onChange={(event) => update('to', event.target.value)}
                    {...fieldA11y('email-to', errors.to)}
                  />
                </FormField>
                <div className="grid gap-5 sm:grid-cols-2">
                  <FormField id="email-cc" label="Cc" error={errors.cc}>
                    <Input
                      value={values.cc}
                      onChange={(event) => update('cc', event.target.value)}
                      {...fieldA11y('email-cc', errors.cc)}
                    />
                  </FormField>
                  <FormField id="email-bcc" label="Bcc" error={errors.bcc}>
                    <Input
                      value={values.bcc}
                      onChange={(event) => update('bcc', event.target.value)}
                      {...fieldA11y('email-bcc', errors.bcc)}
                    />
                  </FormField>
                </div>
                <p className="-mt-3 text-xs text-muted-foreground">Separate several addresses with commas.</p>
                <FormField id="email-subject" label="Subject" error={errors.subject}>
                  <Input
                    value={values.subject}
                    onChange={(event) => update('subject', event.target.value)}
                    {...fieldA11y('email-subject', errors.subject)}
                  />
                </FormField>
                <FormField id="email-body" label="Body" error={errors.body}>
                  <Textarea
                    rows={14}
                    value={values.body}
                    onChange={(event) => update('body', event.target.value)}
                    {...fieldA11y('email-body', errors.body)}
                  />
                </FormField>
              </CardContent>
            </Card>
          </TabsContent>
          <TabsContent value="preview">
            <Card>
              <CardContent className="grid gap-4 pt-6 text-sm">
                <dl className="grid gap-2 border-b border-border pb-4">
                  <PreviewLine label="To" value={recipientsText(preview.to) || '—'} />
                  {preview.cc.length > 0 ? <PreviewLine label="Cc" value={recipientsText(preview.cc)} /> : null}
                  {preview.bcc.length > 0 ? <PreviewLine label="Bcc" value={recipientsText(preview.bcc)} /> : null}
                  <PreviewLine label="Subject" value={values.subject} strong />
                </dl>
                <div className="whitespace-pre-wrap break-words leading-relaxed" data-testid="preview-body">
                  {values.body}
                </div>
              </CardContent>
            </Card>
          </TabsContent>
        </Tabs>

        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => navigate('/dashboard')}>
            Cancel
          </Button>
          <Button type="submit" disabled={sendEmail.isPending}>
            {sendEmail.isPending ? (
              <Spinner className="size-4 text-current" label="Sending" />
            ) : (
              <Send aria-hidden="true" />
            )}
            Send Email
          </Button>
        </div>
      </form>
    </section>
  );
}

function PreviewLine({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className="grid grid-cols-[4.5rem_1fr] gap-2">
      <dt className="text-muted-foreground">{label}:</dt>
      <dd className={strong ? 'font-semibold break-words' : 'break-words'}>{value}</dd>
    </div>
  );
}
