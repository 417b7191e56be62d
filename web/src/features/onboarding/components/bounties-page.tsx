import { MILESTONES, PAYOUT_TYPES, type Bounties, type Milestone, type PayoutType, type User } from '@app/contracts';
import { BOUNTY_LABELS, bountySummary, DEFAULT_MRR_MONTHS, describeBounty } from '@app/domain';
import { ArrowLeft, Gift, Loader2, Save } from 'lucide-react';
import { useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Form, useSchemaForm } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { PageSpinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { paths } from '@/config/paths';
import { withVendor } from '@/lib/my-vendors';
import { WorkspaceBar, type WorkspaceProblem } from '@/components/vendor/workspace';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import { useBounties, useSaveBounties } from '../api/bounties';
import {
  BOUNTY_PROBLEM_TITLE,
  BountiesForm as BountiesSchema,
  bountyProblem,
  initialBounties,
} from '../utils/bounties';
import {
  useLogFailure,
  useVerificationToast,
  useWorkspace,
  workspaceProblem,
  type WorkspaceChoice,
} from './page-hooks';
import { LoadFailedNotice } from './load-failed';

export const PAYOUT_TYPE_LABELS: Record<PayoutType, string> = {
  flat: 'Flat amount (USD)',
  percentage_arr: 'Percentage of first-year ARR',
  percentage_mrr: 'Percentage of monthly MRR',
};

export const BOUNTY_TOASTS = {
  saved: { title: 'Bounties Saved', description: 'Your reward bounties have been saved successfully.' },
  savedForm: 'Bounties saved! Your partners can see them immediately.',
  failed: { title: 'Error', description: 'Failed to save your bounties. Please try again.' },
} as const;

/** A number input's value: blank is "not given". */
const numberOrUndefined = (value: unknown) => (value === '' || value === undefined ? undefined : Number(value));

const BOUNTIES_ACTION = 'set bounties';

/** /onboarding/bounties (spec 2): Set Your Bounties, of the user's vendor workspace (issue 9). */
export function BountiesPage({ user }: { user?: User | null }) {
  useVerificationToast(user);
  const workspace = useWorkspace(user);
  const vendorId = workspace.vendor?.id;
  const saved = useBounties(vendorId, { enabled: workspace.ready && workspace.problem !== 'none' });
  const readProblem = workspaceProblem(saved.error);
  // Logged (spec 7), and the form waits for a read that works (LoadFailedNotice).
  const loadFailed = saved.isError && !readProblem;
  useLogFailure(loadFailed ? saved.error : null, 'Failed to load the bounties');
  if (!workspace.ready || saved.fetchStatus === 'fetching') return <PageSpinner label="Loading your bounties" />;
  const problem = workspace.problem ?? readProblem;
  return (
    <BountiesEditor
      // A new form once a failed read works: its values are the form's defaults, taken when it mounts.
      key={`${vendorId ?? ''}:${loadFailed ? 'unread' : 'read'}`}
      initial={initialBounties(saved.data ?? null)}
      workspace={workspace}
      problem={problem}
      showForm={problem !== 'none' && problem !== 'not-member'}
      loadFailed={loadFailed ? () => void saved.refetch() : null}
      // Issue 12: a vendor's onboarding ends on its workspace; a referrer's (or both) on the search.
      next={user?.intent === 'vendor' ? withVendor(paths.vendor, vendorId) : paths.home}
    />
  );
}

function BountiesEditor({
  initial,
  workspace,
  problem: known,
  showForm,
  loadFailed,
  next,
}: {
  next: string;
  /** Set when the saved bounties could not be read: reads them again. */
  loadFailed: (() => void) | null;
  initial: Bounties;
  workspace: WorkspaceChoice;
  problem: WorkspaceProblem | null;
  showForm: boolean;
}) {
  const navigate = useNavigate();
  const save = useSaveBounties(workspace.vendor?.id);
  // A save the server refused for the workspace (no workspace, not verified, not a member).
  const [refused, setRefused] = useState<WorkspaceProblem | null>(null);
  const problem = refused ?? known;
  const form = useSchemaForm(BountiesSchema, { defaultValues: initial });
  const bounties = useWatch({ control: form.control }) as Bounties;
  const summary = bountySummary(bounties);
  const anyEnabled = summary !== null;

  const onSubmit = async (payload: Bounties) => {
    if (save.isPending || problem !== null) return;
    await save.mutateAsync(payload);
    toast({
      title: BOUNTY_TOASTS.saved.title,
      description: (
        <>
          <span className="block">{BOUNTY_TOASTS.saved.description}</span>
          <span className="block">{BOUNTY_TOASTS.savedForm}</span>
        </>
      ),
    });
    navigate(next);
  };

  const onError = (error: unknown) => {
    console.error('Failed to save the bounties', error);
    const workspaceRefusal = workspaceProblem(error);
    if (workspaceRefusal) {
      setRefused(workspaceRefusal);
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorText(error, BOUNTY_TOASTS.failed.description),
      });
      return;
    }
    toast({ variant: 'destructive', ...BOUNTY_TOASTS.failed });
  };

  // Spec 5: the rules it names are told as a toast, the first one only; every message also stands next to
  // its field (issue 12), and a rule the spec does not toast (months, percentages) is told only there.
  const onInvalid = () => {
    const problem = bountyProblem(form.getValues());
    if (problem && problem.title !== BOUNTY_PROBLEM_TITLE) toast({ variant: 'destructive', ...problem });
  };

  const enable = (m: Milestone) =>
    form.setValue(m, { ...form.getValues(m), enabled: true, type: form.getValues(m).type ?? 'flat' });

  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-8">
      <Button variant="ghost" className="mb-4" onClick={() => navigate(paths.home)}>
        <ArrowLeft aria-hidden="true" /> Back
      </Button>
      <h1 className="text-3xl font-bold tracking-tight">Set Your Bounties</h1>
      <p className="mt-2 text-muted-foreground">Choose the rewards you pay referrers at each sales milestone.</p>
      <WorkspaceBar
        vendors={workspace.vendors}
        vendor={workspace.vendor}
        onSelect={workspace.select}
        problem={problem}
        action={BOUNTIES_ACTION}
        alert={refused !== null}
      />

      {!showForm ? null : loadFailed ? (
        <LoadFailedNotice what="bounties" onRetry={loadFailed} />
      ) : (
        <Form
          form={form}
          onSubmit={onSubmit}
          onError={onError}
          onInvalid={onInvalid}
          noEnterSubmit
          className="mt-6 grid gap-4"
        >
          {!anyEnabled ? (
            <Card>
              <CardContent className="flex flex-col items-center gap-3 p-8 text-center">
                <Gift className="size-10 text-primary" aria-hidden="true" />
                <p className="font-medium">No bounties yet</p>
                <p className="text-sm text-muted-foreground">Reward the partners who bring you customers.</p>
                <Button
                  type="button"
                  onClick={() => {
                    enable('closedWon');
                    // This card (and its button) goes; the amount it revealed is what to fill in next.
                    setTimeout(() => form.setFocus('closedWon.amount'));
                  }}
                >
                  Add your first bounty
                </Button>
              </CardContent>
            </Card>
          ) : null}

          {MILESTONES.map((m) => (
            <MilestoneRow key={m} milestone={m} bounty={bounties[m]} onEnable={() => enable(m)} />
          ))}

          {summary ? (
            <p className="rounded-lg bg-muted p-4 text-sm font-medium" aria-live="polite">
              {summary}
            </p>
          ) : null}

          <p className="text-sm text-muted-foreground">
            Referrals you already have keep their terms: each milestone pays the better of your bounty when the referral
            was made and your bounty when you confirm it. Lowering or turning off a bounty applies to new referrals
            only.
          </p>

          <div className="flex justify-end gap-3">
            <Button type="button" variant="outline" onClick={() => navigate(paths.home)}>
              Back
            </Button>
            <Button type="submit" disabled={!anyEnabled || save.isPending || problem !== null}>
              {save.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}{' '}
              Save Bounties
            </Button>
          </div>
        </Form>
      )}
    </section>
  );
}

function MilestoneRow({
  milestone,
  bounty,
  onEnable,
}: {
  milestone: Milestone;
  bounty: Bounties[Milestone];
  onEnable: () => void;
}) {
  const { register, setValue, getFieldState, formState } = useFormContext<Bounties>();
  const label = BOUNTY_LABELS[milestone];
  const id = `bounty-${milestone}`;
  const type = bounty.type ?? 'flat';
  const percent = type !== 'flat';
  const errorOf = (name: 'amount' | 'months') => {
    const message = getFieldState(`${milestone}.${name}`, formState).error?.message;
    // 'Incomplete bounties – Please enter…': next to the field, the sentence is enough.
    return message ? (message.split(' – ')[1] ?? message) : undefined;
  };
  const a11y = (name: 'amount' | 'months', help?: string) => {
    const error = errorOf(name);
    const describedBy = [help, error ? `${id}-${name}-error` : undefined].filter(Boolean).join(' ');
    return { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy || undefined };
  };
  const errorText = (name: 'amount' | 'months') => {
    const error = errorOf(name);
    return error ? (
      <p id={`${id}-${name}-error`} className="text-sm font-medium text-destructive">
        {error}
      </p>
    ) : null;
  };
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between gap-4 space-y-0">
        <div className="grid gap-1">
          <CardTitle id={`${id}-title`} className="text-lg">
            {label}
          </CardTitle>
          <CardDescription>{bounty.enabled ? describeBounty(bounty, label) : 'Not paid'}</CardDescription>
        </div>
        <Switch
          aria-label={`Enable ${label}`}
          checked={bounty.enabled}
          onCheckedChange={(enabled) => (enabled ? onEnable() : setValue(`${milestone}.enabled`, false))}
        />
      </CardHeader>
      {bounty.enabled ? (
        <CardContent className="grid gap-4 sm:grid-cols-2" role="group" aria-labelledby={`${id}-title`}>
          {/* The payout type has a row of its own: its labels are long and were cut off in a third (issue 12). */}
          <div className="grid gap-2 sm:col-span-2">
            <Label htmlFor={`${id}-type`}>Payout type</Label>
            <NativeSelect
              id={`${id}-type`}
              {...register(`${milestone}.type`, {
                // An MRR bounty starts at the placeholder's months; other types have none.
                onChange: (event: { target: { value: string } }) =>
                  setValue(
                    `${milestone}.months`,
                    event.target.value === 'percentage_mrr' ? (bounty.months ?? DEFAULT_MRR_MONTHS) : undefined,
                  ),
              })}
            >
              {PAYOUT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {PAYOUT_TYPE_LABELS[t]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-amount`}>{percent ? 'Percentage (%)' : 'Amount (USD)'}</Label>
            <Input
              id={`${id}-amount`}
              type="number"
              inputMode="decimal"
              min={0}
              max={percent ? 100 : undefined}
              step="any"
              placeholder={percent ? 'e.g. 10' : 'e.g. 500'}
              {...a11y('amount')}
              {...register(`${milestone}.amount`, { setValueAs: numberOrUndefined })}
            />
            {errorText('amount')}
          </div>
          {type === 'percentage_mrr' ? (
            <div className="grid gap-2">
              <Label htmlFor={`${id}-months`}>Months</Label>
              <Input
                id={`${id}-months`}
                type="number"
                inputMode="numeric"
                min={1}
                max={60}
                step={1}
                placeholder={String(DEFAULT_MRR_MONTHS)}
                {...a11y('months', `${id}-months-help`)}
                {...register(`${milestone}.months`, { setValueAs: numberOrUndefined })}
              />
              <p id={`${id}-months-help`} className="text-xs text-muted-foreground">
                How many months to receive the monthly MRR percentage
              </p>
              {errorText('months')}
            </div>
          ) : null}
        </CardContent>
      ) : null}
    </Card>
  );
}
