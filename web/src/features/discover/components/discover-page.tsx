import {
  COMPANY_SIZES,
  COUNTRIES,
  INDUSTRIES,
  MatchRequest,
  type MatchResponse,
  type ProgramMatch,
} from '@app/contracts';
import { Loader2, Sparkles } from 'lucide-react';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { TagInput } from '@/components/ui/tag-input';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import type { SubmitReferralState } from '@/lib/referral-flow';
import { useFindMatches } from '../api/match';
import { MatchResults } from './match-results';

interface MatchFormState {
  need: string;
  company: string;
  website: string;
  industry: string;
  country: string;
  companySize: string;
  role: string;
  integrations: string[];
  urgency: string;
}

const EMPTY_FORM: MatchFormState = {
  need: '',
  company: '',
  website: '',
  industry: '',
  country: '',
  companySize: '',
  role: '',
  integrations: [],
  urgency: '',
};

export const APPROVAL_TEXT =
  "Nothing is sent without your approval. Next you fill in your contact's details and review the referral before anything goes out.";

/** The request: blank optional fields are left out. */
export function toMatchRequest(form: MatchFormState): MatchRequest {
  const text = (value: string) => (value.trim() === '' ? undefined : value.trim());
  return {
    need: form.need,
    company: text(form.company),
    website: text(form.website),
    industry: text(form.industry),
    country: text(form.country),
    companySize: (text(form.companySize) as MatchRequest['companySize']) ?? undefined,
    role: text(form.role),
    integrations: form.integrations,
    urgency: (text(form.urgency) as MatchRequest['urgency']) ?? undefined,
  };
}

/** What the referral form receives: the same shape the search screen's Yes carries (spec 2). */
export function referralStateFor(match: ProgramMatch, need: string): SubmitReferralState {
  const company = match.companyName ?? match.programName;
  const description = match.description.replace(/\s+/g, ' ').trim();
  return {
    searchResult: `Product: ${match.programName}\nCompany: ${company}\nDescription: ${description}`,
    originalQuery: need.trim(),
    productInfo: { product: match.programName, company, description },
  };
}

function preventEnterSubmit(event: KeyboardEvent<HTMLFormElement>) {
  if (event.key === 'Enter' && event.target instanceof HTMLInputElement) event.preventDefault();
}

/** /discover (issue 4): Smart Match. The referrer describes the client's need; programs come back ranked by fit. */
export function DiscoverPage() {
  const navigate = useNavigate();
  const findMatches = useFindMatches();
  const [form, setForm] = useState<MatchFormState>(EMPTY_FORM);
  const [needError, setNeedError] = useState<string | undefined>();
  const [response, setResponse] = useState<{ answer: MatchResponse; need: string } | null>(null);
  const [approving, setApproving] = useState<ProgramMatch | null>(null);
  const set = <K extends keyof MatchFormState>(key: K, value: MatchFormState[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (findMatches.isPending) return;
    const request = toMatchRequest(form);
    const parsed = MatchRequest.safeParse(request);
    if (!parsed.success) {
      const needIssue = parsed.error.issues.find((i) => i.path[0] === 'need');
      setNeedError(needIssue?.message);
      if (!needIssue)
        toast({
          variant: 'destructive',
          title: 'Error',
          description: parsed.error.issues[0]?.message ?? 'Please check the form',
        });
      return;
    }
    setNeedError(undefined);
    try {
      const answer = await findMatches.mutateAsync(request);
      setResponse({ answer, need: form.need });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorText(error, 'Failed to find matching programs'),
      });
    }
  };

  const approve = () => {
    if (!approving || !response) return;
    const state = referralStateFor(approving, response.need);
    setApproving(null);
    navigate('/submit-referral', { state });
  };

  return (
    <section className="mx-auto w-full max-w-4xl px-4 py-8">
      <div className="flex items-center gap-3">
        <Sparkles className="size-8 text-primary" aria-hidden="true" />
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Discover</h1>
          <p className="text-muted-foreground">
            Smart Match: describe what your client needs and find the programs that fit best.
          </p>
        </div>
      </div>

      <Card className="mt-6">
        <CardHeader>
          <CardTitle>Smart Match</CardTitle>
          <CardDescription>Only the need is required; every detail you add sharpens the ranking.</CardDescription>
        </CardHeader>
        <CardContent>
          <form className="grid gap-4" onSubmit={onSubmit} onKeyDown={preventEnterSubmit} noValidate>
            <FormField id="match-need" label="What does your client need?" error={needError}>
              <Textarea
                {...fieldA11y('match-need', needError)}
                required
                aria-required="true"
                value={form.need}
                placeholder="e.g. A CRM for a 30-person sales team that works with Gmail"
                onChange={(event) => set('need', event.target.value)}
              />
            </FormField>
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField id="match-company" label="Company">
                <Input
                  id="match-company"
                  value={form.company}
                  onChange={(event) => set('company', event.target.value)}
                />
              </FormField>
              <FormField id="match-website" label="Website">
                <Input
                  id="match-website"
                  type="url"
                  placeholder="https://"
                  value={form.website}
                  onChange={(event) => set('website', event.target.value)}
                />
              </FormField>
              <FormField id="match-industry" label="Industry">
                <Input
                  id="match-industry"
                  list="match-industries"
                  autoComplete="off"
                  value={form.industry}
                  onChange={(event) => set('industry', event.target.value)}
                />
                <datalist id="match-industries">
                  {INDUSTRIES.map((industry) => (
                    <option key={industry} value={industry} />
                  ))}
                </datalist>
              </FormField>
              <FormField id="match-country" label="Country">
                <Input
                  id="match-country"
                  list="match-countries"
                  autoComplete="off"
                  value={form.country}
                  onChange={(event) => set('country', event.target.value)}
                />
                <datalist id="match-countries">
                  {COUNTRIES.map((country) => (
                    <option key={country.code} value={country.name} label={`${country.flag} ${country.name}`} />
                  ))}
                </datalist>
              </FormField>
              <FormField id="match-size" label="Company size">
                <NativeSelect
                  id="match-size"
                  value={form.companySize}
                  onChange={(event) => set('companySize', event.target.value)}
                >
                  <option value="">Unknown</option>
                  {COMPANY_SIZES.map((size) => (
                    <option key={size} value={size}>
                      {size}
                    </option>
                  ))}
                </NativeSelect>
              </FormField>
              <FormField id="match-role" label="Contact's role">
                <Input
                  id="match-role"
                  value={form.role}
                  placeholder="e.g. Head of Sales"
                  onChange={(event) => set('role', event.target.value)}
                />
              </FormField>
              <div className="grid gap-2">
                <Label htmlFor="match-integrations">Integrations</Label>
                <TagInput
                  id="match-integrations"
                  label="Integrations"
                  value={form.integrations}
                  onChange={(next) => set('integrations', next)}
                  placeholder="e.g. Slack, then Enter"
                />
              </div>
              <FormField id="match-urgency" label="Urgency">
                <NativeSelect
                  id="match-urgency"
                  value={form.urgency}
                  onChange={(event) => set('urgency', event.target.value)}
                >
                  <option value="">Not sure</option>
                  <option value="low">Low</option>
                  <option value="medium">Medium</option>
                  <option value="high">High</option>
                </NativeSelect>
              </FormField>
            </div>
            <div className="flex justify-end">
              <Button type="submit" disabled={findMatches.isPending}>
                {findMatches.isPending ? (
                  <Loader2 className="animate-spin" aria-hidden="true" />
                ) : (
                  <Sparkles aria-hidden="true" />
                )}{' '}
                Find Matches
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>

      {response ? (
        <div className="mt-8">
          <MatchResults response={response.answer} onRefer={setApproving} />
        </div>
      ) : null}

      <Dialog open={approving !== null} onOpenChange={(open) => !open && setApproving(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Refer to {approving?.programName}?</DialogTitle>
            <DialogDescription>{APPROVAL_TEXT}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button onClick={approve}>Approve &amp; Continue</Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </section>
  );
}
