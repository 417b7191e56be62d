import { CreateReferralRequest } from '@app/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeft, Send } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { SelectedProductCard } from '@/components/referral/selected-product-card';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import { readSubmitReferralState, type SubmittedReferralState } from '@/lib/referral-flow';
import { resetSearch, type ProductInfo } from '@/stores/search-slice';
import { useAppDispatch } from '@/stores/store';
import { useCreateReferral } from '../api/create-referral';
import { SUBMITTED_TOAST } from './messages';

type FormInput = z.input<typeof CreateReferralRequest>;
type FormOutput = z.output<typeof CreateReferralRequest>;

const resolver = zodResolver(CreateReferralRequest);

/**
 * /submit-referral (spec 2): reached with the product found by the search in the navigation state; without it
 * the search screen (/) opens instead. The form validates with the server's own schema (spec 5).
 */
export function SubmitReferralPage() {
  const location = useLocation();
  const state = readSubmitReferralState(location.state);
  if (!state) return <Navigate to="/" replace />;
  return <SubmitReferral product={state.productInfo} />;
}

function SubmitReferral({ product }: { product: ProductInfo }) {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const createReferral = useCreateReferral();
  const {
    register: field,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
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

  const onSubmit = handleSubmit(async (values) => {
    try {
      const referral = await createReferral.mutateAsync(values);
      toast({ title: 'Success', description: SUBMITTED_TOAST });
      // The product has been referred: the search starts over, and the form is gone with this page.
      dispatch(resetSearch());
      const next: SubmittedReferralState = { justSubmitted: true };
      navigate(`/referral/${referral.id}`, { replace: true, state: next });
    } catch (error) {
      toast({ variant: 'destructive', title: 'Error', description: errorText(error, 'Failed to submit referral') });
    }
  });

  const busy = isSubmitting || createReferral.isPending;
  const productError = errors.product?.message ?? errors.productId?.message;

  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 sm:py-10">
      <Link
        to="/"
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
          <form noValidate onSubmit={onSubmit} aria-label="Referral" className="grid gap-5">
            <div className="grid gap-5 sm:grid-cols-2">
              <FormField id="referredFirstName" label="First name" error={errors.referredFirstName?.message}>
                <Input
                  autoComplete="off"
                  {...fieldA11y('referredFirstName', errors.referredFirstName?.message)}
                  {...field('referredFirstName')}
                />
              </FormField>
              <FormField id="referredLastName" label="Last name" error={errors.referredLastName?.message}>
                <Input
                  autoComplete="off"
                  {...fieldA11y('referredLastName', errors.referredLastName?.message)}
                  {...field('referredLastName')}
                />
              </FormField>
            </div>
            <FormField id="referredEmail" label="Email" error={errors.referredEmail?.message}>
              <Input
                type="email"
                inputMode="email"
                autoComplete="off"
                placeholder="name@company.com"
                {...fieldA11y('referredEmail', errors.referredEmail?.message)}
                {...field('referredEmail')}
              />
            </FormField>
            <FormField
              id="referralReason"
              label="Why is this referral a good fit?"
              error={errors.referralReason?.message}
            >
              <Textarea
                rows={5}
                placeholder="What do they need, and why is this product the right answer?"
                {...fieldA11y('referralReason', errors.referralReason?.message)}
                {...field('referralReason')}
              />
            </FormField>
            <fieldset className="grid gap-4">
              <legend className="sr-only">Permissions</legend>
              <CheckboxField
                id="isReferralAware"
                label="The person I'm referring knows about this referral"
                hint="They expect to hear from the vendor."
                {...field('isReferralAware')}
              />
              <CheckboxField
                id="canUseReferrerName"
                label="The vendor may mention my name when reaching out"
                hint="An introduction from someone they know gets a warmer welcome."
                {...field('canUseReferrerName')}
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
          </form>
        </CardContent>
      </Card>
    </section>
  );
}
