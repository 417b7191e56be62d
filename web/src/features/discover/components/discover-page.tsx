import {
  COMPANY_SIZES,
  COUNTRIES,
  INDUSTRIES,
  type MatchRequest,
  type MatchResponse,
  type ProgramMatch,
} from '@app/contracts';
import { Loader2, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
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
import { Form, FormControl, FormInput, FormSelect, FormTextarea } from '@/components/ui/form';
import { TagInput } from '@/components/ui/tag-input';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import { readDiscoverState } from '@/lib/referral-flow';
import { useFindMatches } from '../api/match';
import { MatchForm, prefilledMatchForm, referralStateFor } from '../utils/match-form';
import { MatchResults } from './match-results';

export const APPROVAL_TEXT =
  "Nothing is sent without your approval. Next you fill in your contact's details and review the referral before anything goes out.";

// Rendered once: the lists are long, and typing in the form does not render the page again.
const INDUSTRY_OPTIONS = INDUSTRIES.map((industry) => <option key={industry} value={industry} />);
const COUNTRY_OPTIONS = COUNTRIES.map((country) => (
  <option key={country.code} value={country.name} label={`${country.name} (${country.code})`} />
));

/** /discover (issue 4): Smart Match. The referrer describes the client's need; programs come back ranked by fit. */
export function DiscoverPage() {
  const navigate = useNavigate();
  const location = useLocation();
  // Sent here by the referral form when the vendor does not want the client: start from what it knew.
  const [initial] = useState(() => prefilledMatchForm(readDiscoverState(location.state)));
  const findMatches = useFindMatches();
  const [response, setResponse] = useState<{ answer: MatchResponse; need: string } | null>(null);
  const [approving, setApproving] = useState<ProgramMatch | null>(null);

  const onSubmit = async (request: MatchRequest) => {
    if (findMatches.isPending) return;
    const answer = await findMatches.mutateAsync(request);
    setResponse({ answer, need: request.need });
  };
  const onError = (error: unknown) =>
    toast({
      variant: 'destructive',
      title: 'Error',
      description: errorText(error, 'Failed to find matching programs'),
    });

  const approve = () => {
    if (!approving || !response) return;
    const state = referralStateFor(approving, response.need);
    setApproving(null);
    navigate(paths.submitReferral, { state });
  };

  return (
    <section className="mx-auto w-full max-w-4xl px-4 py-8">
      <div className="flex items-start gap-3 sm:items-center">
        <Sparkles className="mt-0.5 size-8 shrink-0 text-primary sm:mt-0" aria-hidden="true" />
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
          <Form
            schema={MatchForm}
            defaultValues={initial}
            onSubmit={onSubmit}
            onError={onError}
            noEnterSubmit
            className="grid gap-4"
          >
            <FormTextarea
              name="need"
              id="match-need"
              label="What does your client need?"
              required
              aria-required="true"
              placeholder="e.g. A CRM for a 30-person sales team that works with Gmail"
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <FormInput name="company" id="match-company" label="Company" />
              <FormInput name="website" id="match-website" label="Website" type="url" placeholder="https://" />
              <div className="grid gap-2">
                <FormInput
                  name="industry"
                  id="match-industry"
                  label="Industry"
                  list="match-industries"
                  autoComplete="off"
                />
                <datalist id="match-industries">{INDUSTRY_OPTIONS}</datalist>
              </div>
              <div className="grid gap-2">
                <FormInput
                  name="country"
                  id="match-country"
                  label="Country"
                  list="match-countries"
                  autoComplete="off"
                />
                <datalist id="match-countries">{COUNTRY_OPTIONS}</datalist>
              </div>
              <FormSelect name="companySize" id="match-size" label="Company size">
                <option value="">Unknown</option>
                {COMPANY_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </FormSelect>
              <FormInput name="role" id="match-role" label="Contact's role" placeholder="e.g. Head of Sales" />
              <FormControl name="integrations" id="match-integrations" label="Integrations">
                {({ field, id, error }) => (
                  <TagInput
                    id={id}
                    label="Integrations"
                    value={field.value}
                    onChange={field.onChange}
                    describedBy={error ? `${id}-error` : undefined}
                    placeholder="e.g. Slack, then Enter"
                  />
                )}
              </FormControl>
              <FormSelect name="urgency" id="match-urgency" label="Urgency">
                <option value="">Not sure</option>
                <option value="low">Low</option>
                <option value="medium">Medium</option>
                <option value="high">High</option>
              </FormSelect>
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
          </Form>
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
