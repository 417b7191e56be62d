import { CreateReferralRequest } from '@app/contracts';
import { ArrowLeft, Send } from 'lucide-react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { SelectedProductCard } from '@/components/referral/selected-product-card';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { fieldError, Form, FormCheckbox, FormInput, FormTextarea, useSchemaForm } from '@/components/ui/form';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import { readSubmitReferralState, type SubmittedReferralState } from '@/lib/referral-flow';
import { resetSearch, type ProductInfo } from '@/stores/search-slice';
import { useAppDispatch } from '@/stores/store';
import { useCreateReferral } from '../api/create-referral';
import { SUBMITTED_TOAST } from './messages';

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
    },
  });
  const { errors, isSubmitting } = form.formState;
  const busy = isSubmitting || createReferral.isPending;
  const productError = fieldError(errors, 'product') ?? fieldError(errors, 'productId');

  const onSubmit = async (values: z.output<typeof CreateReferralRequest>) => {
    const referral = await createReferral.mutateAsync(values);
    toast({ title: 'Success', description: SUBMITTED_TOAST });
    // The product has been referred: the search starts over, and the form is gone with this page.
    dispatch(resetSearch());
    const next: SubmittedReferralState = { justSubmitted: true };
    navigate(paths.referral(referral.id), { replace: true, state: next });
  };
  const onError = (error: unknown) =>
    toast({ variant: 'destructive', title: 'Error', description: errorText(error, 'Failed to submit referral') });

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

      <Card className="mt-6">
        <CardHeader>
          <CardTitle className="text-lg">Who are you referring?</CardTitle>
          <CardDescription>Nothing is sent to anyone without your approval.</CardDescription>
        </CardHeader>
        <CardContent>
          <Form form={form} onSubmit={onSubmit} onError={onError} aria-label="Referral" className="grid gap-5">
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
            <div className="flex justify-end">
              <Button type="submit" disabled={busy} className="w-full sm:w-auto">
                {busy ? (
                  <Spinner className="size-4 text-current" label="Submitting referral" />
                ) : (
                  <Send aria-hidden="true" />
                )}
                Submit Referral
              </Button>
            </div>
          </Form>
        </CardContent>
      </Card>
    </section>
  );
}
