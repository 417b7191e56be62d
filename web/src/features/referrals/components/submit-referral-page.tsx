import {
  ClientOrganization,
  COMPANY_SIZES,
  COUNTRIES,
  CreateReferralRequest,
  INDUSTRIES,
  NOT_FOUND,
  stripLegalSuffixes,
  type ReferralFitRequest,
} from '@app/contracts';
import { ArrowLeft, Send } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { SelectedProductCard } from '@/components/referral/selected-product-card';
import { VerificationRequired } from '@/components/referral/verification-required';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  fieldError,
  Form,
  FormCheckbox,
  FormInput,
  FormSelect,
  FormTextarea,
  useSchemaForm,
} from '@/components/ui/form';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { toast } from '@/hooks/use-toast';
import { isApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { readSubmitReferralState, type DiscoverState, type SubmittedReferralState } from '@/lib/referral-flow';
import { resetSearch, type ProductInfo } from '@/stores/search-slice';
import { useAppDispatch } from '@/stores/store';
import { useReferralFit } from '../api/check-fit';
import { useCreateReferral } from '../api/create-referral';
import { FitPanel, type FitState } from './fit-panel';
import { SUBMITTED_TOAST } from './messages';

/** The fit is checked once the client's fields have not changed for this long. */
export const FIT_DEBOUNCE_MS = 500;

// Rendered once: the lists are long, and typing in the form does not render them again.
const INDUSTRY_OPTIONS = INDUSTRIES.map((industry) => <option key={industry} value={industry} />);
const COUNTRY_OPTIONS = COUNTRIES.map((country) => (
  <option key={country.code} value={country.name} label={`${country.name} (${country.code})`} />
));

/** The destination as a person names it: the company (legal suffixes stripped), else the product. */
function vendorLabel(product: ProductInfo): string {
  if (product.company && product.company !== NOT_FOUND) return stripLegalSuffixes(product.company);
  if (product.product && product.product !== NOT_FOUND) return product.product;
  return 'This vendor';
}

/**
 * /submit-referral (spec 2): reached with the product found by the search in the navigation state; without it
 * the search screen (/) opens instead. The form validates with the server's own schema (spec 5).
 */
export function SubmitReferralPage() {
  const location = useLocation();
  const state = readSubmitReferralState(location.state);
  if (!state) return <Navigate to={paths.home} replace />;
  return <SubmitReferral product={state.productInfo} />;
}

function SubmitReferral({ product }: { product: ProductInfo }) {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const createReferral = useCreateReferral();
  const form = useSchemaForm(CreateReferralRequest, {
    defaultValues: {
      referredFirstName: '',
      referredLastName: '',
      referredEmail: '',
      referralReason: '',
      isReferralAware: false,
      canUseReferrerName: false,
      productId: 'auto-generated',
      product: product.product,
      company: product.company,
      description: product.description,
      website: product.website ?? '',
      client: { name: '', website: '', country: '', industry: '' },
      notes: '',
    },
  });
  const { errors, isSubmitting } = form.formState;
  const productError =
    fieldError(errors, 'product') ?? fieldError(errors, 'company') ?? fieldError(errors, 'productId');

  // Issue 9: where the referral goes and how the client fits, checked as the client's fields change.
  const client = useWatch({ control: form.control, name: 'client' });
  const reason = useWatch({ control: form.control, name: 'referralReason' });
  const clientKey = JSON.stringify(client ?? {});
  // Debounced as text: the request object is new at every render.
  const requestKey = JSON.stringify(fitRequestFor(product, client));
  const checkedKey = useDebouncedValue(requestKey, FIT_DEBOUNCE_MS);
  const fitRequest = useMemo(() => JSON.parse(checkedKey) as ReferralFitRequest | null, [checkedKey]);
  const fit = useReferralFit(fitRequest);
  const settled = checkedKey === requestKey;
  const fitState: FitState =
    requestKey === 'null'
      ? { status: 'idle' }
      : !settled
        ? { status: 'checking' }
        : fit.isError
          ? { status: 'failed' }
          : fit.data && !fit.isPlaceholderData
            ? { status: 'ready', answer: fit.data }
            : { status: 'checking' };
  // The server's refusal (ICP_MISMATCH) holds for the client it was given, until the client changes.
  const [refused, setRefused] = useState<{ client: string; reasons: string[] } | null>(null);
  const refusedReasons = refused && refused.client === clientKey ? refused.reasons : null;
  const [unverified, setUnverified] = useState(false);
  const unroutable = fitState.status === 'ready' && !fitState.answer.routable;
  const blocked = unroutable || refusedReasons !== null;
  const busy = isSubmitting || createReferral.isPending;

  const discover: DiscoverState = {
    prefill: {
      need: reason?.trim() || product.description,
      company: client?.name ?? '',
      website: client?.website ?? '',
      industry: client?.industry ?? '',
      country: client?.country ?? '',
      ...(client?.size ? { companySize: client.size } : {}),
    },
  };

  const onSubmit = async (values: z.output<typeof CreateReferralRequest>) => {
    if (blocked) return;
    const referral = await createReferral.mutateAsync(values);
    toast({ title: 'Success', description: SUBMITTED_TOAST });
    // The product has been referred: the search starts over, and the form is gone with this page.
    dispatch(resetSearch());
    const next: SubmittedReferralState = { justSubmitted: true };
    navigate(paths.referral(referral.id), { replace: true, state: next });
  };
  const onError = (error: unknown) => {
    if (isApiError(error, 'EMAIL_NOT_VERIFIED')) {
      // Issue 11: referring needs a verified email; the notice offers a new link.
      setUnverified(true);
      toast({
        variant: 'destructive',
        title: 'Email Verification Required',
        description: 'Please verify your email address before proceeding.',
      });
      return;
    }
    if (isApiError(error, 'ICP_MISMATCH')) setRefused({ client: clientKey, reasons: error.details ?? [] });
    toast({ variant: 'destructive', title: 'Error', description: errorText(error, 'Failed to submit referral') });
  };

  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 sm:py-10">
      <Link
        to={paths.home}
        className="inline-flex items-center gap-1.5 rounded text-sm font-medium text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to Dashboard
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight">Submit New Referral</h1>
      <p className="mt-2 text-muted-foreground">Tell the vendor who you are referring and why it is a good fit.</p>

      <SelectedProductCard product={product} className="mt-6" />
      {productError ? (
        <p role="alert" className="mt-2 text-sm font-medium text-destructive">
          {productError}
        </p>
      ) : null}

      {unverified ? <VerificationRequired className="mt-6" /> : null}
      {/* Enter in a field never submits: the lead reaches the vendor on submit, so half a form must not go (Enter in
          Country or Industry reads as taking the suggestion). Submit Referral submits. */}
      <Form
        form={form}
        onSubmit={onSubmit}
        onError={onError}
        noEnterSubmit
        aria-label="Referral"
        className="mt-6 grid gap-6"
      >
        <Card>
          <CardHeader>
            <CardTitle className="text-lg">Who are you referring?</CardTitle>
            <CardDescription>Nothing is sent to anyone without your approval.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5">
            <div className="grid gap-5 sm:grid-cols-2">
              <FormInput name="referredFirstName" label="First name" autoComplete="off" />
              <FormInput name="referredLastName" label="Last name" autoComplete="off" />
            </div>
            <FormInput
              name="referredEmail"
              label="Email"
              type="email"
              inputMode="email"
              autoComplete="off"
              placeholder="name@company.com"
            />
            <FormTextarea
              name="referralReason"
              label="Why is this referral a good fit?"
              rows={5}
              placeholder="What do they need, and why is this product the right answer?"
            />
            <fieldset className="grid gap-4">
              <legend className="sr-only">Permissions</legend>
              <FormCheckbox
                name="isReferralAware"
                label="The person I'm referring knows about this referral"
                hint="They expect to hear from the vendor."
              />
              <FormCheckbox
                name="canUseReferrerName"
                label="The vendor may mention my name when reaching out"
                hint="An introduction from someone they know gets a warmer welcome."
              />
            </fieldset>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle className="text-lg">Their organization</CardTitle>
            <CardDescription>
              The vendor checks it against the customers it wants. Only the name is required; every detail helps.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5">
            <FormInput name="client.name" id="client-name" label="Client organization" autoComplete="off" />
            <div className="grid gap-5 sm:grid-cols-2">
              <FormInput
                name="client.website"
                id="client-website"
                label="Client website"
                inputMode="url"
                autoComplete="off"
                placeholder="globex.com"
              />
              <FormSelect name="client.size" id="client-size" label="Company size">
                <option value="">Not sure</option>
                {COMPANY_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </FormSelect>
              <div className="grid gap-2">
                <FormInput
                  name="client.country"
                  id="client-country"
                  label="Country"
                  list="client-countries"
                  autoComplete="off"
                />
                <datalist id="client-countries">{COUNTRY_OPTIONS}</datalist>
              </div>
              <div className="grid gap-2">
                <FormInput
                  name="client.industry"
                  id="client-industry"
                  label="Industry"
                  list="client-industries"
                  autoComplete="off"
                />
                <datalist id="client-industries">{INDUSTRY_OPTIONS}</datalist>
              </div>
            </div>
            <FormTextarea
              name="notes"
              id="referral-notes"
              label="Notes for the vendor (optional)"
              rows={3}
              placeholder="Anything that helps the vendor follow up: timing, budget, who else is involved."
            />
            <FitPanel
              state={fitState}
              refused={refusedReasons}
              vendorLabel={vendorLabel(product)}
              discover={discover}
            />
          </CardContent>
        </Card>

        <div className="flex justify-end">
          <Button type="submit" disabled={busy || blocked} className="w-full sm:w-auto">
            {busy ? (
              <Spinner className="size-4 text-current" label="Submitting referral" />
            ) : (
              <Send aria-hidden="true" />
            )}
            Submit Referral
          </Button>
        </div>
      </Form>
    </section>
  );
}

/** The fit check of what is typed so far; null until the client's organization is named (and valid). */
function fitRequestFor(product: ProductInfo, client: unknown): ReferralFitRequest | null {
  const parsed = ClientOrganization.safeParse(client);
  if (!parsed.success) return null;
  return { product: product.product, company: product.company, website: product.website ?? '', client: parsed.data };
}
