import {
  COMPANY_SIZES,
  COUNTRIES,
  DEPARTMENTS,
  FUNDING_STAGES,
  hasAnyCriteria,
  INDUSTRIES,
  JOB_TITLES,
  SENIORITY_LEVELS,
  type LeadCriteria,
  type User,
} from '@app/contracts';
import { ArrowLeft, Loader2, Save } from 'lucide-react';
import { useMemo, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ChoiceChips } from '@/components/ui/choice-chips';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageSpinner } from '@/components/ui/spinner';
import { TagInput, type TagOption } from '@/components/ui/tag-input';
import { toast } from '@/hooks/use-toast';
import { useLeadCriteria, useSaveLeadCriteria } from '../api/lead-criteria';
import { useLogFailure, useVerificationToast } from './page-hooks';

type Criteria = Omit<LeadCriteria, 'employeeCount' | 'fundingStage' | 'seniority' | 'departments'> & {
  employeeCount: string[];
  fundingStage: string[];
  seniority: string[];
  departments: string[];
};

export const EMPTY_CRITERIA: Criteria = {
  employeeCount: [],
  industries: [],
  countries: [],
  minRevenue: '',
  fundingStage: [],
  techStack: [],
  companyNotes: [],
  jobTitles: [],
  seniority: [],
  departments: [],
  contactNotes: [],
};

export const ICP_TOASTS = {
  saved: { title: 'Ideal Customer Profile Saved', description: 'Your profile has been saved successfully.' },
  failed: { title: 'Error', description: 'Failed to save your Ideal Customer Profile. Please try again.' },
} as const;

/** Digits only (spec 5), at most 15. */
export const revenueDigits = (text: string) => text.replace(/\D/g, '').slice(0, 15);
/** The digits with thousands separators, e.g. '1000000' → '1,000,000'. */
export const formatRevenue = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * Enter in a one-line input never submits the profile (spec 2): tags are added with Enter, and a half-typed
 * entry must not save the form.
 */
function preventEnterSubmit(event: KeyboardEvent<HTMLFormElement>) {
  if (event.key === 'Enter' && event.target instanceof HTMLInputElement) event.preventDefault();
}

/** /onboarding (spec 2): the Ideal Customer Profile form. */
export function OnboardingPage({ user }: { user?: User | null }) {
  useVerificationToast(user);
  const saved = useLeadCriteria();
  // A failed read other than 404 is only logged (spec 7): the form starts empty.
  useLogFailure(saved.error, 'Failed to load the Ideal Customer Profile');
  if (saved.isPending) return <PageSpinner label="Loading your profile" />;
  const initial = saved.data ? pickCriteria(saved.data) : EMPTY_CRITERIA;
  return <CriteriaForm initial={initial} />;
}

function pickCriteria(data: LeadCriteria): Criteria {
  const out = { ...EMPTY_CRITERIA };
  for (const key of Object.keys(EMPTY_CRITERIA) as (keyof Criteria)[]) {
    const value = (data as Partial<Record<keyof Criteria, unknown>>)[key];
    if (key === 'minRevenue') out.minRevenue = typeof value === 'string' ? revenueDigits(value) : '';
    else if (Array.isArray(value))
      (out as Record<string, unknown>)[key] = value.filter((v): v is string => typeof v === 'string');
  }
  return out;
}

function CriteriaForm({ initial }: { initial: Criteria }) {
  const navigate = useNavigate();
  const save = useSaveLeadCriteria();
  const [criteria, setCriteria] = useState<Criteria>(initial);
  const set =
    <K extends keyof Criteria>(key: K) =>
    (value: Criteria[K]) =>
      setCriteria((c) => ({ ...c, [key]: value }));
  const countryOptions = useMemo<TagOption[]>(() => COUNTRIES.map((c) => ({ value: c.name, prefix: c.flag })), []);
  const canSave = hasAnyCriteria(criteria as LeadCriteria) && !save.isPending;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSave) return;
    try {
      await save.mutateAsync(criteria as LeadCriteria);
      toast(ICP_TOASTS.saved);
      navigate('/');
    } catch (error) {
      console.error('Failed to save the Ideal Customer Profile', error);
      toast({ variant: 'destructive', ...ICP_TOASTS.failed });
    }
  };

  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-8">
      <Button variant="ghost" className="mb-4" onClick={() => navigate('/')}>
        <ArrowLeft aria-hidden="true" /> Back
      </Button>
      <h1 className="text-3xl font-bold tracking-tight">Ideal Customer Profile</h1>
      <p className="mt-2 text-muted-foreground">
        Describe the customers you want so that only matching prospects are routed to you.
      </p>

      <form className="mt-6 grid gap-6" onSubmit={onSubmit} onKeyDown={preventEnterSubmit} noValidate>
        <Card>
          <CardHeader>
            <CardTitle>Company</CardTitle>
            <CardDescription>The companies you sell to.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6">
            <ChoiceChips
              legend="Company Size"
              options={COMPANY_SIZES}
              value={criteria.employeeCount}
              onChange={set('employeeCount')}
            />
            <TagField id="icp-industries" label="Industries">
              {(id, label) => (
                <TagInput
                  id={id}
                  label={label}
                  options={INDUSTRIES}
                  value={criteria.industries}
                  onChange={set('industries')}
                  placeholder="Type an industry and press Enter"
                />
              )}
            </TagField>
            <TagField id="icp-countries" label="Countries">
              {(id, label) => (
                <TagInput
                  id={id}
                  label={label}
                  options={countryOptions}
                  value={criteria.countries}
                  onChange={set('countries')}
                  placeholder="Type a country and press Enter"
                />
              )}
            </TagField>
            <div className="grid gap-2">
              <Label htmlFor="icp-revenue">Minimum Annual Revenue (USD)</Label>
              <Input
                id="icp-revenue"
                inputMode="numeric"
                autoComplete="off"
                placeholder="e.g. 1,000,000"
                value={formatRevenue(criteria.minRevenue)}
                onChange={(event) => set('minRevenue')(revenueDigits(event.target.value))}
              />
            </div>
            <ChoiceChips
              legend="Funding Stage"
              options={FUNDING_STAGES}
              value={criteria.fundingStage}
              onChange={set('fundingStage')}
            />
            <TagField id="icp-tech" label="Tech Stack">
              {(id, label) => (
                <TagInput
                  id={id}
                  label={label}
                  value={criteria.techStack}
                  onChange={set('techStack')}
                  placeholder="e.g. Salesforce, then Enter"
                />
              )}
            </TagField>
            <TagField id="icp-company-notes" label="Company Notes">
              {(id, label) => (
                <TagInput
                  id={id}
                  label={label}
                  value={criteria.companyNotes}
                  onChange={set('companyNotes')}
                  placeholder="Anything else about the company, then Enter"
                />
              )}
            </TagField>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Contact</CardTitle>
            <CardDescription>The people you want to be introduced to.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6">
            <TagField id="icp-job-titles" label="Job Titles">
              {(id, label) => (
                <TagInput
                  id={id}
                  label={label}
                  options={JOB_TITLES}
                  value={criteria.jobTitles}
                  onChange={set('jobTitles')}
                  listClassName="h-72"
                  placeholder="Type a job title and press Enter"
                />
              )}
            </TagField>
            <ChoiceChips
              legend="Seniority"
              options={SENIORITY_LEVELS}
              value={criteria.seniority}
              onChange={set('seniority')}
            />
            <ChoiceChips
              legend="Departments"
              options={DEPARTMENTS}
              value={criteria.departments}
              onChange={set('departments')}
            />
            <TagField id="icp-contact-notes" label="Contact Notes">
              {(id, label) => (
                <TagInput
                  id={id}
                  label={label}
                  value={criteria.contactNotes}
                  onChange={set('contactNotes')}
                  placeholder="Anything else about the contact, then Enter"
                />
              )}
            </TagField>
          </CardContent>
        </Card>

        <div className="flex justify-end gap-3">
          <Button type="button" variant="outline" onClick={() => navigate('/')}>
            Back
          </Button>
          <Button type="submit" disabled={!canSave}>
            {save.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}{' '}
            Save &amp; Continue
          </Button>
        </div>
      </form>
    </section>
  );
}

function TagField({
  id,
  label,
  children,
}: {
  id: string;
  label: string;
  children: (id: string, label: string) => ReactNode;
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children(id, label)}
    </div>
  );
}
