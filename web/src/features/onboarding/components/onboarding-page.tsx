import {
  COMPANY_SIZES,
  COUNTRIES,
  DEPARTMENTS,
  FUNDING_STAGES,
  hasAnyCriteria,
  INDUSTRIES,
  JOB_TITLES,
  LeadCriteria,
  SENIORITY_LEVELS,
  type User,
} from '@app/contracts';
import { ArrowLeft, Loader2, Save } from 'lucide-react';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ChoiceChips } from '@/components/ui/choice-chips';
import { Form, FormControl, useSchemaForm } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { PageSpinner } from '@/components/ui/spinner';
import { TagInput, type TagOption } from '@/components/ui/tag-input';
import { paths } from '@/config/paths';
import { WorkspaceBar, type WorkspaceProblem } from '@/components/vendor/workspace';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import { useVendorParam, withVendor } from '@/lib/my-vendors';
import { useLeadCriteria, useSaveLeadCriteria } from '../api/lead-criteria';
import { IntentChoice } from './intent-choice';
import { LoadFailedNotice } from './load-failed';
import {
  criteriaValues,
  EMPTY_CRITERIA,
  formatRevenue,
  revenueDigits,
  type CriteriaValues,
} from '../utils/lead-criteria';
import {
  useLogFailure,
  useVerificationToast,
  useWorkspace,
  workspaceProblem,
  type WorkspaceChoice,
} from './page-hooks';

export const ICP_TOASTS = {
  saved: { title: 'Ideal Customer Profile Saved', description: 'Your profile has been saved successfully.' },
  failed: { title: 'Error', description: 'Failed to save your Ideal Customer Profile. Please try again.' },
} as const;

// Country codes, not flag emoji: Chromium on Linux and Windows draws the flags as two letters in boxes (issue 12).
const COUNTRY_OPTIONS: TagOption[] = COUNTRIES.map((c) => ({
  value: c.name,
  prefix: <span className="font-mono text-xs text-foreground/80">{c.code}</span>,
}));

const ICP_ACTION = 'set lead criteria';

/**
 * /onboarding (spec 2): the Ideal Customer Profile form, of the user's vendor workspace (issue 9): a user
 * without one is guided to create it, an unverified one is told how to verify it.
 */
export function OnboardingPage({ user }: { user?: User | null }) {
  // Issue 12: a new user first says what they came for, unless they came from their workspace's Lead Criteria
  // (its id in the address): they have said it by creating the workspace.
  const [fromWorkspace] = useVendorParam();
  if (user && user.intent === null && !fromWorkspace) return <IntentChoice />;
  return <CriteriaPage user={user} />;
}

function CriteriaPage({ user }: { user?: User | null }) {
  useVerificationToast(user);
  const workspace = useWorkspace(user);
  const vendorId = workspace.vendor?.id;
  const saved = useLeadCriteria(vendorId, { enabled: workspace.ready && workspace.problem !== 'none' });
  const readProblem = workspaceProblem(saved.error);
  // A failed read other than 'none saved yet' is logged (spec 7), and the form waits for a read that works.
  const loadFailed = saved.isError && !readProblem;
  useLogFailure(loadFailed ? saved.error : null, 'Failed to load the Ideal Customer Profile');
  if (!workspace.ready || saved.fetchStatus === 'fetching') return <PageSpinner label="Loading your profile" />;
  const problem = workspace.problem ?? readProblem;
  const initial = saved.data ? criteriaValues(saved.data) : EMPTY_CRITERIA;
  return (
    <CriteriaForm
      // A new form once a failed read works: its values are the form's defaults, taken when it mounts.
      key={`${vendorId ?? ''}:${loadFailed ? 'unread' : 'read'}`}
      initial={initial}
      workspace={workspace}
      problem={problem}
      showForm={problem !== 'none' && problem !== 'not-member'}
      loadFailed={loadFailed ? () => void saved.refetch() : null}
    />
  );
}

function CriteriaForm({
  initial,
  workspace,
  problem: known,
  showForm,
  loadFailed,
}: {
  initial: CriteriaValues;
  workspace: WorkspaceChoice;
  problem: WorkspaceProblem | null;
  showForm: boolean;
  /** Set when the saved profile could not be read: reads it again. */
  loadFailed: (() => void) | null;
}) {
  const navigate = useNavigate();
  const save = useSaveLeadCriteria(workspace.vendor?.id);
  const form = useSchemaForm(LeadCriteria, { defaultValues: initial });
  const values = useWatch({ control: form.control });
  // A save the server refused for the workspace (no workspace, not verified, not a member).
  const [refused, setRefused] = useState<WorkspaceProblem | null>(null);
  const problem = refused ?? known;
  const canSave = hasAnyCriteria(values) && !save.isPending && problem === null;

  const onSubmit = async (criteria: LeadCriteria) => {
    if (!canSave) return;
    await save.mutateAsync(criteria);
    toast(ICP_TOASTS.saved);
    // Issue 12: the vendor's next step is the bounties it pays (of the same workspace).
    navigate(withVendor(paths.bounties, workspace.vendor?.id));
  };
  const onError = (error: unknown) => {
    console.error('Failed to save the Ideal Customer Profile', error);
    const workspaceRefusal = workspaceProblem(error);
    if (workspaceRefusal) {
      setRefused(workspaceRefusal);
      toast({ variant: 'destructive', title: 'Error', description: errorText(error, ICP_TOASTS.failed.description) });
      return;
    }
    toast({ variant: 'destructive', ...ICP_TOASTS.failed });
  };

  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-8">
      <Button variant="ghost" className="mb-4" onClick={() => navigate(paths.home)}>
        <ArrowLeft aria-hidden="true" /> Back
      </Button>
      <h1 className="text-3xl font-bold tracking-tight">Ideal Customer Profile</h1>
      <p className="mt-2 text-muted-foreground">
        Describe the customers you want so that only matching prospects are routed to you.
      </p>
      <WorkspaceBar
        vendors={workspace.vendors}
        vendor={workspace.vendor}
        onSelect={workspace.select}
        problem={problem}
        action={ICP_ACTION}
        alert={refused !== null}
      />

      {!showForm ? null : loadFailed ? (
        <LoadFailedNotice what="lead criteria" onRetry={loadFailed} />
      ) : (
        <Form form={form} onSubmit={onSubmit} onError={onError} noEnterSubmit className="mt-6 grid gap-6">
          <Card>
            <CardHeader>
              <CardTitle>Company</CardTitle>
              <CardDescription>The companies you sell to.</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-6">
              <FormControl name="employeeCount">
                {({ field }) => (
                  <ChoiceChips
                    legend="Company Size"
                    options={COMPANY_SIZES}
                    value={field.value}
                    onChange={field.onChange}
                  />
                )}
              </FormControl>
              <FormControl name="industries" id="icp-industries" label="Industries">
                {({ field, id }) => (
                  <TagInput
                    id={id}
                    value={field.value}
                    onChange={field.onChange}
                    label="Industries"
                    options={INDUSTRIES}
                    placeholder="Type an industry and press Enter"
                  />
                )}
              </FormControl>
              <FormControl name="countries" id="icp-countries" label="Countries">
                {({ field, id }) => (
                  <TagInput
                    id={id}
                    value={field.value}
                    onChange={field.onChange}
                    label="Countries"
                    options={COUNTRY_OPTIONS}
                    placeholder="Type a country and press Enter"
                  />
                )}
              </FormControl>
              <FormControl name="minRevenue" id="icp-revenue" label="Minimum Annual Revenue (USD)">
                {({ field, a11y }) => (
                  <Input
                    {...a11y}
                    ref={field.ref}
                    name={field.name}
                    inputMode="numeric"
                    autoComplete="off"
                    placeholder="e.g. 1,000,000"
                    value={formatRevenue(field.value)}
                    onBlur={field.onBlur}
                    onChange={(event) => field.onChange(revenueDigits(event.target.value))}
                  />
                )}
              </FormControl>
              <FormControl name="fundingStage">
                {({ field }) => (
                  <ChoiceChips
                    legend="Funding Stage"
                    options={FUNDING_STAGES}
                    value={field.value}
                    onChange={field.onChange}
                  />
                )}
              </FormControl>
              <FormControl name="techStack" id="icp-tech" label="Tech Stack">
                {({ field, id }) => (
                  <TagInput
                    id={id}
                    value={field.value}
                    onChange={field.onChange}
                    label="Tech Stack"
                    placeholder="e.g. Salesforce, then Enter"
                  />
                )}
              </FormControl>
              <FormControl name="companyNotes" id="icp-company-notes" label="Company Notes">
                {({ field, id }) => (
                  <TagInput
                    id={id}
                    value={field.value}
                    onChange={field.onChange}
                    label="Company Notes"
                    placeholder="Anything else about the company, then Enter"
                  />
                )}
              </FormControl>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>Contact</CardTitle>
              <CardDescription>The people you want to be introduced to.</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-6">
              <FormControl name="jobTitles" id="icp-job-titles" label="Job Titles">
                {({ field, id }) => (
                  <TagInput
                    id={id}
                    value={field.value}
                    onChange={field.onChange}
                    label="Job Titles"
                    options={JOB_TITLES}
                    listClassName="h-72"
                    placeholder="Type a job title and press Enter"
                  />
                )}
              </FormControl>
              <FormControl name="seniority">
                {({ field }) => (
                  <ChoiceChips
                    legend="Seniority"
                    options={SENIORITY_LEVELS}
                    value={field.value}
                    onChange={field.onChange}
                  />
                )}
              </FormControl>
              <FormControl name="departments">
                {({ field }) => (
                  <ChoiceChips
                    legend="Departments"
                    options={DEPARTMENTS}
                    value={field.value}
                    onChange={field.onChange}
                  />
                )}
              </FormControl>
              <FormControl name="contactNotes" id="icp-contact-notes" label="Contact Notes">
                {({ field, id }) => (
                  <TagInput
                    id={id}
                    value={field.value}
                    onChange={field.onChange}
                    label="Contact Notes"
                    placeholder="Anything else about the contact, then Enter"
                  />
                )}
              </FormControl>
            </CardContent>
          </Card>

          <div className="flex justify-end gap-3">
            <Button type="button" variant="outline" onClick={() => navigate(paths.home)}>
              Back
            </Button>
            <Button type="submit" disabled={!canSave}>
              {save.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}{' '}
              Save &amp; Continue
            </Button>
          </div>
        </Form>
      )}
    </section>
  );
}
