import { SendEmailRequest, type EmailDraft, type Referral, type User } from '@app/contracts';
import { possessive } from '@app/domain';
import { ArrowLeft, Clock, Eye, MailCheck, PencilLine, RefreshCw, SearchX, Send } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { PRODUCT_NAME } from '@/components/layout/logo';
import { VerificationRequired } from '@/components/referral/verification-required';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Form, FormInput, FormTextarea, useSchemaForm } from '@/components/ui/form';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { isApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { isDraftNotReady, useEmailDraft } from '../api/get-email-draft';
import { useReferral } from '../api/get-referral';
import { useSendEmail } from '../api/send-email';
import { parseRecipients, recipientsText } from '../utils/recipients';
import { GoBackButton, InvalidReferral, StateCard } from './referral-states';
import { isReferralId } from './messages';

export const SEND_FAILED = 'Failed to send email';
/** The spec's verification toast (section 6), when the server refuses to send for an unverified email. */
const VERIFICATION_TOAST = {
  title: 'Email Verification Required',
  description: 'Please verify your email address before proceeding.',
} as const;
export const GET_DRAFT_FAILED = 'Failed to get email draft';
const LOAD_REFERRAL_FAILED = 'Failed to load referral';

/** Who the intro is from (issue 9): the referrer, through the platform, never the vendor. */
export const senderLine = (user: Pick<User, 'firstName' | 'lastName' | 'email'> | null | undefined) => {
  const name = `${user?.firstName ?? ''} ${user?.lastName ?? ''}`.trim() || user?.email || 'You';
  return `${name} via ${PRODUCT_NAME}`;
};

/** /referral/{id}/email-draft (spec 2): loading, not found, not ready (polled), failed, editor, sent. */
export function EmailDraftPage({ user }: { user?: User | null }) {
  const { id } = useParams();
  if (!isReferralId(id)) return <InvalidReferral />;
  return <EmailDraftScreen key={id} id={id} user={user ?? null} />;
}

const isReferralNotFound = (error: unknown) => isApiError(error, 'REFERRAL_NOT_FOUND');
/** What the screen itself says ('Referral Not Found', 'Email Draft Not Ready'): no toast for those. */
const saysItself = (error: unknown) => isReferralNotFound(error) || isDraftNotReady(error);

function EmailDraftScreen({ id, user }: { id: string; user: User | null }) {
  const referralQuery = useReferral(id);
  const draftQuery = useEmailDraft(id);
  const [sent, setSent] = useState(false);

  const referralError = referralQuery.error;
  const draftError = draftQuery.error;

  // Spec 8: failed calls toast a destructive 'Error' with the server's text.
  useEffect(() => {
    if (!referralError || saysItself(referralError)) return;
    toast({ variant: 'destructive', title: 'Error', description: errorText(referralError, LOAD_REFERRAL_FAILED) });
  }, [referralError]);
  useEffect(() => {
    if (!draftError || saysItself(draftError)) return;
    toast({ variant: 'destructive', title: 'Error', description: errorText(draftError, GET_DRAFT_FAILED) });
  }, [draftError]);

  if (isReferralNotFound(referralError) || isReferralNotFound(draftError)) {
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
  if (referralError) return <LoadFailed text={errorText(referralError, LOAD_REFERRAL_FAILED)} />;
  if (isDraftNotReady(draftError)) {
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
  if (draftError) return <LoadFailed text={errorText(draftError, GET_DRAFT_FAILED)} />;
  if (referralQuery.isPending || draftQuery.isPending) {
    return (
      <div className="flex min-h-[50vh] w-full flex-1 flex-col items-center justify-center gap-3">
        <Spinner className="size-8" label="Loading your email draft" />
        <p className="text-sm text-muted-foreground" aria-hidden="true">
          Loading your email draft
        </p>
      </div>
    );
  }

  const referral = referralQuery.data;
  if (sent || referral.emailSentAt) return <EmailSent referral={referral} />;
  return (
    <DraftEditor
      id={id}
      referral={referral}
      user={user}
      draft={draftQuery.data.emailDraft}
      sender={draftQuery.data}
      onSent={() => setSent(true)}
    />
  );
}

function BackToDashboard() {
  return (
    <Button asChild variant="outline">
      <Link to={paths.dashboard}>
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
    <StateCard
      title="Email Sent!"
      focusTitle
      icon={<MailCheck className="size-12 text-emerald-600" aria-hidden="true" />}
    >
      <p className="text-muted-foreground">
        Your introduction of {referral.referredFirstName} {referral.referredLastName} is on its way. Follow the referral
        on your Tee ups dashboard.
      </p>
      <Button asChild>
        <Link to={paths.dashboard}>Return to Dashboard</Link>
      </Button>
    </StateCard>
  );
}

function DraftEditor({
  id,
  referral,
  user,
  draft,
  sender,
  onSent,
}: {
  id: string;
  referral: Referral;
  user: User | null;
  draft: EmailDraft;
  /** From, Reply-To and the Cc the server always adds, as the service will send them. */
  sender: { from: string; replyTo: string; alwaysCc: string[] };
  onSent: () => void;
}) {
  const navigate = useNavigate();
  const sendEmail = useSendEmail(id);
  const [tab, setTab] = useState('edit');
  // Issue 11: sending needs a verified email; said before sending when known, and when the server refuses.
  const [refusedUnverified, setRefusedUnverified] = useState(false);
  const needsVerification = refusedUnverified || (user !== null && !user.emailVerified && !user.isAdmin);
  // Recipients are edited as comma-separated text (spec 2); the contract reads that text as lists.
  const form = useSchemaForm(SendEmailRequest, {
    defaultValues: {
      subject: draft.subject,
      body: draft.body,
      recipients: {
        to: recipientsText(draft.recipients.to),
        cc: recipientsText(draft.recipients.cc),
        bcc: recipientsText(draft.recipients.bcc),
      },
    },
  });
  const values = useWatch({ control: form.control });
  // As Tee ups shows it: a routed referral's vendor workspace name, else the company the search found.
  const company = referral.company || referral.project.companyName;
  const name = `${referral.referredFirstName} ${referral.referredLastName}`.trim();

  const onSubmit = async (request: SendEmailRequest) => {
    await sendEmail.mutateAsync(request);
    toast({ title: 'Success', description: 'Email sent successfully!' });
    onSent();
  };
  const onError = (error: unknown) => {
    if (isApiError(error, 'EMAIL_NOT_VERIFIED')) {
      setRefusedUnverified(true);
      toast({ variant: 'destructive', ...VERIFICATION_TOAST });
      return;
    }
    toast({ variant: 'destructive', title: 'Error', description: errorText(error, SEND_FAILED) });
  };

  const preview = {
    to: parseRecipients(values.recipients?.to),
    cc: parseRecipients(values.recipients?.cc),
    bcc: parseRecipients(values.recipients?.bcc),
  };
  // The service always copies the vendor's lead inbox when the referral was routed to a vendor on the platform.
  const cc = [...preview.cc, ...sender.alwaysCc.filter((address) => !preview.cc.includes(address))];

  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 sm:py-10">
      <Link
        to={paths.dashboard}
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

      <Form
        form={form}
        onSubmit={onSubmit}
        onError={onError}
        onInvalid={() => setTab('edit')}
        aria-label="Intro email"
        className="mt-6"
      >
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
                <FormInput
                  name="recipients.to"
                  id="email-to"
                  label="To"
                  placeholder="name@company.com, other@company.com"
                />
                <div className="grid gap-5 sm:grid-cols-2">
                  <FormInput name="recipients.cc" id="email-cc" label="Cc" />
                  <FormInput name="recipients.bcc" id="email-bcc" label="Bcc" />
                </div>
                <p className="-mt-3 text-xs text-muted-foreground">
                  Separate several addresses with commas. Sent as {sender.from || senderLine(user)}
                  {sender.replyTo ? `, replies to ${sender.replyTo}` : ''}.
                  {sender.alwaysCc.length > 0
                    ? ` ${possessive(referral.lead?.vendorName ?? 'The vendor')} lead inbox (${sender.alwaysCc.join(', ')}) is copied too.`
                    : ''}
                </p>
                <FormInput name="subject" id="email-subject" label="Subject" />
                <FormTextarea name="body" id="email-body" label="Body" rows={14} />
              </CardContent>
            </Card>
          </TabsContent>
          <TabsContent value="preview">
            <Card>
              <CardContent className="grid gap-4 pt-6 text-sm">
                <dl className="grid gap-2 border-b border-border pb-4">
                  <PreviewLine label="From" value={sender.from || senderLine(user)} />
                  {sender.replyTo ? <PreviewLine label="Reply-To" value={sender.replyTo} /> : null}
                  <PreviewLine label="To" value={recipientsText(preview.to) || '—'} />
                  {cc.length > 0 ? <PreviewLine label="Cc" value={cc.join(', ')} /> : null}
                  {preview.bcc.length > 0 ? <PreviewLine label="Bcc" value={recipientsText(preview.bcc)} /> : null}
                  <PreviewLine label="Subject" value={values.subject ?? ''} strong />
                </dl>
                <div className="whitespace-pre-wrap wrap-anywhere leading-relaxed" data-testid="preview-body">
                  {values.body}
                </div>
              </CardContent>
            </Card>
          </TabsContent>
        </Tabs>

        {needsVerification ? <VerificationRequired className="mt-6" /> : null}
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => navigate(paths.dashboard)}>
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
      </Form>
    </section>
  );
}

function PreviewLine({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className="grid grid-cols-[5rem_1fr] gap-2">
      <dt className="text-muted-foreground">{label}:</dt>
      <dd className={strong ? 'font-semibold wrap-anywhere' : 'wrap-anywhere'}>{value}</dd>
    </div>
  );
}
