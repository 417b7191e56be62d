import {
  BOUNTY_MESSAGES,
  Bounties,
  DEFAULT_BOUNTIES,
  MILESTONES,
  PAYOUT_TYPES,
  type Bounty,
  type Milestone,
  type PayoutType,
  type User,
} from '@app/contracts';
import { ArrowLeft, Gift, Loader2, Save } from 'lucide-react';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { PageSpinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/hooks/use-toast';
import { useBounties, useSaveBounties } from '../api/bounties';
import { useLogFailure, useVerificationToast } from './page-hooks';

export const MILESTONE_LABELS: Record<Milestone, string> = {
  qualifiedLead: 'Qualified Lead',
  meetingHeld: 'Meeting Held',
  opportunityCreated: 'Opportunity Created',
  closedWon: 'Closed-Won',
  retentionBonus: 'Retention Bonus',
};

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

/** 'Title – description' (spec 5) split for a toast. */
const splitMessage = (message: string) => {
  const [title, ...rest] = message.split(' – ');
  return { title: title!, description: rest.join(' – ') };
};

const DEFAULT_MONTHS = 12;

/** One milestone's payout as a phrase of the summary line. */
export function describeBounty(bounty: Bounty, label: string): string {
  const amount = bounty.amount !== undefined && bounty.amount > 0 ? bounty.amount : undefined;
  switch (bounty.type ?? 'flat') {
    case 'percentage_arr':
      return `${amount ?? '?'}% of first-year ARR at ${label}`;
    case 'percentage_mrr':
      return `${amount ?? '?'}% of MRR for ${bounty.months ?? DEFAULT_MONTHS} months at ${label}`;
    default:
      return `${amount !== undefined ? `$${amount.toLocaleString('en-US')}` : '$?'} at ${label}`;
  }
}

/** "You'll pay …" from the enabled milestones, in milestone order; null when none is enabled. */
export function bountySummary(bounties: Bounties): string | null {
  const parts = MILESTONES.filter((m) => bounties[m].enabled).map((m) =>
    describeBounty(bounties[m], MILESTONE_LABELS[m]),
  );
  if (parts.length === 0) return null;
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return `You'll pay ${list}.`;
}

/** What is sent: the details of enabled milestones only (months only for percentage_mrr). */
export function bountiesPayload(bounties: Bounties): Bounties {
  const out = {} as Bounties;
  for (const m of MILESTONES) {
    const b = bounties[m];
    if (!b.enabled) {
      out[m] = { enabled: false };
      continue;
    }
    const type = b.type ?? 'flat';
    out[m] = { enabled: true, type, ...(b.amount !== undefined ? { amount: b.amount } : {}) };
    if (type === 'percentage_mrr') out[m].months = b.months ?? DEFAULT_MONTHS;
  }
  return out;
}

/** The first rule of spec 5 the bounties break, as a toast; null when they can be saved. */
export function bountyProblem(bounties: Bounties): { title: string; description: string } | null {
  const result = Bounties.safeParse(bountiesPayload(bounties));
  if (result.success) return null;
  const messages = result.error.issues.map((i) => i.message);
  const first =
    messages.find((m) => m === BOUNTY_MESSAGES.noneEnabled) ??
    messages.find((m) => m === BOUNTY_MESSAGES.missingAmount) ??
    messages[0]!;
  return first.includes(' – ') ? splitMessage(first) : { title: 'Check your bounties', description: first };
}

function normalize(saved: Bounties | null): Bounties {
  const base = saved ?? DEFAULT_BOUNTIES;
  return Object.fromEntries(MILESTONES.map((m) => [m, { ...(base[m] ?? { enabled: false }) }])) as Bounties;
}

function preventEnterSubmit(event: KeyboardEvent<HTMLFormElement>) {
  if (event.key === 'Enter' && event.target instanceof HTMLInputElement) event.preventDefault();
}

/** /onboarding/bounties (spec 2): Set Your Bounties. */
export function BountiesPage({ user }: { user?: User | null }) {
  useVerificationToast(user);
  const saved = useBounties();
  useLogFailure(saved.error, 'Failed to load the bounties');
  if (saved.isPending) return <PageSpinner label="Loading your bounties" />;
  return <BountiesForm initial={normalize(saved.data ?? null)} />;
}

function BountiesForm({ initial }: { initial: Bounties }) {
  const navigate = useNavigate();
  const save = useSaveBounties();
  const [bounties, setBounties] = useState<Bounties>(initial);
  const update = (m: Milestone, patch: Partial<Bounty>) => setBounties((b) => ({ ...b, [m]: { ...b[m], ...patch } }));
  const summary = bountySummary(bounties);
  const anyEnabled = summary !== null;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const problem = bountyProblem(bounties);
    if (problem) {
      toast({ variant: 'destructive', ...problem });
      return;
    }
    try {
      await save.mutateAsync(bountiesPayload(bounties));
      toast({
        title: BOUNTY_TOASTS.saved.title,
        description: (
          <>
            <span className="block">{BOUNTY_TOASTS.saved.description}</span>
            <span className="block">{BOUNTY_TOASTS.savedForm}</span>
          </>
        ),
      });
      navigate('/');
    } catch (error) {
      console.error('Failed to save the bounties', error);
      toast({ variant: 'destructive', ...BOUNTY_TOASTS.failed });
    }
  };

  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-8">
      <Button variant="ghost" className="mb-4" onClick={() => navigate('/')}>
        <ArrowLeft aria-hidden="true" /> Back
      </Button>
      <h1 className="text-3xl font-bold tracking-tight">Set Your Bounties</h1>
      <p className="mt-2 text-muted-foreground">Choose the rewards you pay referrers at each sales milestone.</p>

      <form className="mt-6 grid gap-4" onSubmit={onSubmit} onKeyDown={preventEnterSubmit} noValidate>
        {!anyEnabled ? (
          <Card>
            <CardContent className="flex flex-col items-center gap-3 p-8 text-center">
              <Gift className="size-10 text-primary" aria-hidden="true" />
              <p className="font-medium">No bounties yet</p>
              <p className="text-sm text-muted-foreground">Reward the partners who bring you customers.</p>
              <Button
                type="button"
                onClick={() => update('closedWon', { enabled: true, type: bounties.closedWon.type ?? 'flat' })}
              >
                Add your first bounty
              </Button>
            </CardContent>
          </Card>
        ) : null}

        {MILESTONES.map((m) => (
          <MilestoneRow key={m} milestone={m} bounty={bounties[m]} onChange={(patch) => update(m, patch)} />
        ))}

        {summary ? (
          <p className="rounded-lg bg-muted p-4 text-sm font-medium" aria-live="polite">
            {summary}
          </p>
        ) : null}

        <div className="flex justify-end gap-3">
          <Button type="button" variant="outline" onClick={() => navigate('/')}>
            Back
          </Button>
          <Button type="submit" disabled={!anyEnabled || save.isPending}>
            {save.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}{' '}
            Save Bounties
          </Button>
        </div>
      </form>
    </section>
  );
}

function MilestoneRow({
  milestone,
  bounty,
  onChange,
}: {
  milestone: Milestone;
  bounty: Bounty;
  onChange: (patch: Partial<Bounty>) => void;
}) {
  const label = MILESTONE_LABELS[milestone];
  const id = `bounty-${milestone}`;
  const type = bounty.type ?? 'flat';
  const percent = type !== 'flat';
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
          onCheckedChange={(enabled) => onChange(enabled ? { enabled, type } : { enabled })}
        />
      </CardHeader>
      {bounty.enabled ? (
        <CardContent className="grid gap-4 sm:grid-cols-3" role="group" aria-labelledby={`${id}-title`}>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-type`}>Payout type</Label>
            <NativeSelect
              id={`${id}-type`}
              value={type}
              onChange={(event) => {
                const next = event.target.value as PayoutType;
                onChange(
                  next === 'percentage_mrr'
                    ? { type: next, months: bounty.months ?? DEFAULT_MONTHS }
                    : { type: next, months: undefined },
                );
              }}
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
              placeholder={percent ? '10' : '500'}
              value={bounty.amount ?? ''}
              onChange={(event) =>
                onChange({ amount: event.target.value === '' ? undefined : Number(event.target.value) })
              }
            />
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
                placeholder="12"
                aria-describedby={`${id}-months-help`}
                value={bounty.months ?? ''}
                onChange={(event) =>
                  onChange({ months: event.target.value === '' ? undefined : Number(event.target.value) })
                }
              />
              <p id={`${id}-months-help`} className="text-xs text-muted-foreground">
                How many months to receive the monthly MRR percentage
              </p>
            </div>
          ) : null}
        </CardContent>
      ) : null}
    </Card>
  );
}
