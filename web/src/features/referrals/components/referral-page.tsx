import { stripLegalSuffixes, type Referral } from '@app/contracts';
import { isReferralProgramText, possessive } from '@app/domain';
import { ArrowLeft, ArrowRight, Bell, CheckCircle2, FileText, Loader2, MailCheck, TrendingUp } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { isApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/dates';
import { errorText } from '@/lib/errors';
import { isJustSubmitted } from '@/lib/referral-flow';
import { useEmailDraftCheck } from '../api/check-email-draft';
import { useReferral } from '../api/get-referral';
import { automateReferral, getReferralProgram } from '../api/referral-program';
import { AutomationModal } from './automation-modal';
import { AUTOMATE_FAILED, CHECK_FAILED, isReferralId, SUBMITTED_TOAST } from './messages';
import { GoBackButton, InvalidReferral, StateCard } from './referral-states';
import { ThanksModal } from './thanks-modal';
import { UncheckedModal } from './unchecked-modal';

/**
 * /referral/{id}: the referral submitted screen (spec 2). Arriving from the form (`justSubmitted` in the
 * navigation state) it also runs the spec 4 follow-up: program check → dry run → preview modal, or the
 * 'Thanks' modal, or a toast. Nothing here moves the user on by itself (issue 12): each modal stays until
 * closed, and the draft, once ready, is opened with 'Review Intro Email'.
 */
export function ReferralPage() {
  const { id } = useParams();
  if (!isReferralId(id)) return <InvalidReferral />;
  return <ReferralSubmitted key={id} id={id} />;
}

type Phase = 'idle' | 'checking' | 'automating' | 'preview' | 'thanks' | 'unchecked' | 'rechecking';

/**
 * Failures that say the check could not be made (issue 11): the service could not ask, or the gateway got
 * no answer in time. Other failures keep the spec's path (toast, back to /).
 */
const couldNotCheck = (error: unknown) =>
  isApiError(error) &&
  (['PROGRAM_CHECK_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'UPSTREAM_TIMEOUT', 'BAD_GATEWAY'] as const).some(
    (code) => error.code === code,
  );

/**
 * Spec 2's four steps. The first is only true of a referral routed to a vendor on the platform; one that
 * reached no vendor says so instead (the form and the timeline said it already).
 */
const stepsFor = (vendorName: string | null, company: string) => [
  vendorName
    ? { icon: Bell, title: 'The vendor is alerted', text: `We let ${vendorName} know a warm referral is on its way.` }
    : {
        icon: Bell,
        title: 'The intro goes to your client',
        text: `${company || 'This vendor'} is not on Referral Hub yet, so nothing is sent to them: your intro email goes to your client only.`,
      },
  {
    icon: FileText,
    title: 'A draft intro is prepared',
    text: 'We write an introduction email for you to review and edit.',
  },
  {
    icon: MailCheck,
    title: 'A quick review',
    text: 'Once the company opts in, you give the intro a quick review and send it.',
  },
  {
    icon: TrendingUp,
    title: 'Track and earn',
    text: 'Follow the referral on your Tee ups dashboard and earn as it progresses.',
  },
];

function ReferralSubmitted({ id }: { id: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  const [justSubmitted] = useState(() => isJustSubmitted(location.state));
  const [phase, setPhase] = useState<Phase>(justSubmitted ? 'checking' : 'idle');
  // The vendor's website the dry run found (issue 12): its own form variant even when the product had none.
  const [previewWebsite, setPreviewWebsite] = useState<string | null>(null);
  const referralQuery = useReferral(id);
  const draftCheck = useEmailDraftCheck(id);
  const referral = referralQuery.data;

  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // The follow-up runs once per submission: a reload of this page must not run it again.
  useEffect(() => {
    if (justSubmitted) navigate(location.pathname, { replace: true, state: null });
    // Only on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Closing a modal returns to this screen, where the next step (the draft) waits.
  const dismiss = useCallback(() => setPhase('idle'), []);

  const started = useRef(false);
  useEffect(() => {
    if (!justSubmitted || !referral || started.current) return;
    started.current = true;
    void runFollowUp(referral, { isActive: () => mounted.current, setPhase, setWebsite: setPreviewWebsite });
  }, [justSubmitted, referral]);

  const retryCheck = useCallback(() => {
    if (!referral) return;
    setPhase('rechecking');
    void runFollowUp(referral, {
      isActive: () => mounted.current,
      setPhase,
      setWebsite: setPreviewWebsite,
      again: true,
    });
  }, [referral]);

  // Spec 2: the screen polls for the draft (every 3 s); once it is ready the user opens it (issue 12).
  const draftReady = draftCheck.data?.ready === true;

  if (referralQuery.isPending) return <PageSpinner label="Loading your referral" />;
  if (referralQuery.isError) {
    return (
      <StateCard title="Something went wrong">
        <p className="text-muted-foreground">{errorText(referralQuery.error, 'Failed to load referral')}</p>
        <GoBackButton />
      </StateCard>
    );
  }

  const data = referralQuery.data;
  const company = data.project.companyName || data.company;
  const shownCompany = stripLegalSuffixes(company);
  return (
    <section className="mx-auto w-full max-w-2xl px-4 py-10 sm:py-16">
      <div className="text-center">
        <CheckCircle2 className="mx-auto size-14 text-emerald-600" aria-hidden="true" />
        <h1 className="mt-4 text-3xl font-bold tracking-tight text-balance">Referral Successfully Submitted!</h1>
        <p className="mt-3 text-muted-foreground">
          {`You referred ${data.referredFirstName} ${data.referredLastName} to ${data.project.productName || shownCompany}`}
          {shownCompany && data.project.productName && !sameName(shownCompany, data.project.productName)
            ? ` by ${shownCompany}`
            : ''}
          .
        </p>
      </div>

      <Card className="mt-8">
        <CardContent className="pt-6">
          <h2 className="text-lg font-semibold">What happens next</h2>
          <ol className="mt-4 grid gap-4">
            {stepsFor(data.lead?.vendorName ?? null, shownCompany).map(({ icon: Icon, title, text }, index) => (
              <li key={title} className="flex gap-3">
                <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
                  <Icon className="size-4" aria-hidden="true" />
                </span>
                <div>
                  <p className="font-medium">
                    <span className="sr-only">{`Step ${index + 1}: `}</span>
                    {title}
                  </p>
                  <p className="text-sm text-muted-foreground">{text}</p>
                </div>
              </li>
            ))}
          </ol>
        </CardContent>
      </Card>

      {phase === 'checking' || phase === 'automating' ? (
        <p className="mt-6 flex items-center justify-center gap-2 text-sm text-muted-foreground" role="status">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          {phase === 'checking'
            ? `Checking ${possessive(shownCompany || 'the vendor')} referral program…`
            : 'Preparing the referral form preview…'}
        </p>
      ) : null}
      <p className="mt-6 flex items-center justify-center gap-2 text-sm text-muted-foreground" role="status">
        {data.emailSentAt ? (
          <>
            <MailCheck className="size-4 text-emerald-600" aria-hidden="true" />
            {`Your intro email was sent on ${formatDate(data.emailSentAt)}.`}
          </>
        ) : data.status === 'declined' ? (
          'This referral is in Declined: its intro email will not be sent.'
        ) : draftReady ? (
          <>
            <CheckCircle2 className="size-4 text-emerald-600" aria-hidden="true" />
            Your intro email draft is ready.
          </>
        ) : (
          <>
            <Loader2 className="size-4 animate-spin" aria-hidden="true" />
            Preparing your intro email draft…
          </>
        )}
      </p>

      <div className="mt-6 flex flex-col-reverse justify-center gap-3 sm:flex-row">
        <Button asChild variant="outline">
          <Link to={paths.dashboard}>
            <ArrowLeft aria-hidden="true" />
            Back to Dashboard
          </Link>
        </Button>
        {data.emailSentAt || (draftReady && data.status !== 'declined') ? (
          <Button asChild>
            <Link to={paths.referralDraft(id)}>
              {data.emailSentAt ? 'View Intro Email' : 'Review Intro Email'}
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        ) : null}
      </div>

      {phase === 'preview' ? (
        <AutomationModal
          website={previewWebsite ?? data.project.website}
          company={company}
          values={{
            firstName: data.referredFirstName,
            lastName: data.referredLastName,
            email: data.referredEmail,
            message: data.referralReason,
          }}
          onClose={dismiss}
        />
      ) : null}
      {phase === 'thanks' ? <ThanksModal company={shownCompany} routed={data.lead !== null} onClose={dismiss} /> : null}
      {phase === 'unchecked' || phase === 'rechecking' ? (
        <UncheckedModal retrying={phase === 'rechecking'} onRetry={retryCheck} onClose={dismiss} />
      ) : null}
    </section>
  );
}

/**
 * Spec 4, after 'referral created': program check, then the dry run or the 'Thanks' modal. A failure is said
 * in a toast and leaves the user on the submitted screen (issue 12: the draft step follows), not on /.
 */
async function runFollowUp(
  referral: Referral,
  {
    isActive,
    setPhase,
    again = false,
    setWebsite,
  }: {
    isActive: () => boolean;
    setPhase: (phase: Phase) => void;
    setWebsite?: (website: string | null) => void;
    again?: boolean;
  },
) {
  let programText: string;
  try {
    programText = await getReferralProgram(referral.projectId, referral.id);
  } catch (error) {
    if (!isActive()) return;
    if (couldNotCheck(error)) {
      // The referral is saved: said once, then the honest "couldn't check" with a retry.
      if (!again) toast({ title: SUBMITTED_TOAST });
      setPhase('unchecked');
      return;
    }
    toast({ title: SUBMITTED_TOAST, description: errorText(error, CHECK_FAILED) });
    setPhase('idle');
    return;
  }
  if (!isActive()) return;
  if (!isReferralProgramText(programText)) {
    setPhase('thanks');
    return;
  }

  setPhase('automating');
  let result: Awaited<ReturnType<typeof automateReferral>>;
  try {
    result = await automateReferral(referral.id);
  } catch (error) {
    if (!isActive()) return;
    toast({
      title: SUBMITTED_TOAST,
      description: `The automation preview failed: ${errorText(error, AUTOMATE_FAILED)}`,
    });
    setPhase('idle');
    return;
  }
  if (!isActive()) return;
  if (!result.success) {
    toast({ variant: 'destructive', title: 'Error', description: result.message || AUTOMATE_FAILED });
    setPhase('idle');
    return;
  }
  setWebsite?.(result.website ?? null);
  setPhase('preview');
}

/** 'Slack by Slack' says nothing: the company is left out when it is the product's name. */
const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
