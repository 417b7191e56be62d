import { NOT_FOUND, SearchRequest, stripLegalSuffixes } from '@app/contracts';
import { nanoid } from '@reduxjs/toolkit';
import { ArrowRight, Check, X } from 'lucide-react';
import { Link, useNavigate } from 'react-router-dom';
import { SelectedProductCard } from '@/components/referral/selected-product-card';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Form, FormControl, useSchemaForm } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { isApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import type { SubmitReferralState } from '@/lib/referral-flow';
import {
  alternativeChosen,
  resetSearch,
  searchFailed,
  searchStarted,
  searchSucceeded,
  setQuery,
  type ProductInfo,
} from '@/stores/search-slice';
import { useAppDispatch, useAppSelector } from '@/stores/store';
import { useSearchProducts } from '../api/search-products';

/** Not a product one can refer: the search found nothing (issue 12: "Not found" never becomes a referral). */
export const isReferable = (product: ProductInfo) =>
  [product.product, product.company].every((value) => value.trim() !== '' && value.trim() !== NOT_FOUND);

export const SEARCH_FAILED_FALLBACK = 'Unable to process your search. Please try again.';

/** The server's message for a failed search (4xx); a server error, a network failure or no message gives the fallback. */
function searchFailureText(error: unknown): string {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return errorText(error, SEARCH_FAILED_FALLBACK);
  return SEARCH_FAILED_FALLBACK;
}

/**
 * Signed-in home (spec 2 and 4): idle → searching (previous result cleared, input and button disabled) →
 * the Selected Product card, or a 'Search Failed' toast with the result cleared. The state lives in the Redux
 * search slice so the top bar can start the flow over.
 */
export function SearchPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const search = useAppSelector((state) => state.search);
  const searchProducts = useSearchProducts();
  const searching = search.status === 'searching';
  const blank = search.query.trim() === '';

  // The query lives in the search slice (the top bar starts over); the form validates and submits it.
  const form = useSchemaForm(SearchRequest, {
    defaultValues: { query: search.query },
    values: { query: search.query },
  });

  const onSubmit = async ({ query }: { query: string }) => {
    if (searching) return;
    const requestId = nanoid();
    dispatch(searchStarted({ requestId }));
    try {
      const answer = await searchProducts.mutateAsync(query);
      dispatch(
        searchSucceeded({
          requestId,
          result: answer.product,
          text: answer.text,
          query,
          alternatives: answer.alternatives,
        }),
      );
    } catch (error) {
      dispatch(searchFailed({ requestId }));
      toast({ variant: 'destructive', title: 'Search Failed', description: searchFailureText(error) });
    }
  };

  const referable = search.result ? isReferable(search.result) : false;

  const onYes = () => {
    if (!search.result || !isReferable(search.result)) return;
    const state: SubmitReferralState = {
      searchResult: search.resultText,
      originalQuery: search.resultQuery,
      productInfo: search.result,
    };
    navigate(paths.submitReferral, { state });
  };

  return (
    <section className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-center px-4 pt-16 pb-10 text-center sm:pt-24">
      <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">What do you want to refer?</h1>
      <p className="mt-3 text-muted-foreground" id="refer-prompt">
        Enter a product, company, or website URL
      </p>
      <Card className="mt-8 w-full">
        <CardContent className="p-3">
          <Form
            form={form}
            onSubmit={onSubmit}
            role="search"
            aria-label="Product search"
            className="flex items-center gap-2"
          >
            <label htmlFor="refer-query" className="sr-only">
              Product, company, or website URL
            </label>
            <FormControl name="query" id="refer-query">
              {({ field, id }) => (
                <Input
                  id={id}
                  ref={field.ref}
                  name={field.name}
                  value={field.value}
                  onBlur={field.onBlur}
                  onChange={(event) => {
                    field.onChange(event);
                    dispatch(setQuery(event.target.value));
                  }}
                  placeholder="Refer Anything.."
                  disabled={searching}
                  aria-describedby="refer-prompt"
                  className="h-12 border-0 text-base shadow-none focus-visible:ring-0"
                  autoComplete="off"
                  maxLength={500}
                />
              )}
            </FormControl>
            <Button
              type="submit"
              size="icon"
              aria-label="Search"
              disabled={blank || searching}
              className="size-12 rounded-lg"
            >
              {searching ? (
                <Spinner className="size-5 text-current" label="Searching" />
              ) : (
                <ArrowRight aria-hidden="true" />
              )}
            </Button>
          </Form>
        </CardContent>
      </Card>

      {searching ? (
        <div className="mt-10 flex flex-col items-center gap-3 text-sm text-muted-foreground" aria-live="polite">
          <Spinner className="size-8" label="Searching for the product" />
          <span aria-hidden="true">Looking up the product…</span>
        </div>
      ) : null}

      {search.status === 'done' && search.result ? (
        <div className="mt-8 w-full" aria-live="polite">
          <SelectedProductCard product={search.result}>
            <div className="mt-6 border-t border-border pt-5">
              <p className="font-medium text-foreground">Is this the product you're referring to?</p>
              <div className="mt-4 flex flex-col gap-2 sm:flex-row">
                <Button
                  variant="outline"
                  className="sm:flex-1"
                  onClick={() => {
                    dispatch(resetSearch());
                    // The card (and this button) goes: the keyboard goes back to the search, to try again.
                    form.setFocus('query');
                  }}
                >
                  <X aria-hidden="true" />
                  No
                </Button>
                <Button
                  className="sm:flex-1"
                  onClick={onYes}
                  disabled={!referable}
                  aria-describedby={referable ? undefined : 'not-found-hint'}
                >
                  <Check aria-hidden="true" />
                  Yes
                </Button>
              </div>
              {referable ? null : (
                <p id="not-found-hint" className="mt-3 text-sm text-muted-foreground">
                  Try a product name, a website, or{' '}
                  <Link to={paths.discover} className="font-medium text-primary underline underline-offset-4">
                    Smart Match
                  </Link>
                </p>
              )}
            </div>
          </SelectedProductCard>
          {search.alternatives.length ? (
            <section aria-labelledby="alternatives-title" className="mt-4 text-left">
              <h2 id="alternatives-title" className="text-sm font-medium text-muted-foreground">
                Or refer one of these instead
              </h2>
              <ul className="mt-2 grid gap-2">
                {search.alternatives.map((other, index) => (
                  <li key={`${other.product}-${index}`}>
                    <Button
                      variant="outline"
                      className="h-auto w-full min-w-0 flex-col items-start gap-0.5 px-4 py-3 text-left whitespace-normal"
                      onClick={() => dispatch(alternativeChosen(index))}
                    >
                      <span className="font-semibold wrap-anywhere text-foreground">{other.product}</span>
                      <span className="text-xs font-normal wrap-anywhere text-muted-foreground">
                        {stripLegalSuffixes(other.company)} · {other.description}
                      </span>
                    </Button>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
