import { ArrowRight } from 'lucide-react';
import type { FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { toast } from '@/hooks/use-toast';
import { setQuery } from '@/stores/search-slice';
import { useAppDispatch, useAppSelector } from '@/stores/store';

/** Signed-in home: where a referral starts. The product search itself arrives with later work. */
export function SearchPage() {
  const dispatch = useAppDispatch();
  const query = useAppSelector((state) => state.search.query);
  const searching = useAppSelector((state) => state.search.status === 'searching');
  const blank = query.trim() === '';

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (blank || searching) return;
    toast({ title: 'Coming Soon', description: 'Product search arrives with a later release.' });
  };

  return (
    <section className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-center px-4 pt-16 pb-10 text-center sm:pt-24">
      <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">What do you want to refer?</h1>
      <p className="mt-3 text-muted-foreground">Enter a product, company, or website URL</p>
      <Card className="mt-8 w-full">
        <CardContent className="p-3">
          <form role="search" onSubmit={onSubmit} className="flex items-center gap-2">
            <label htmlFor="refer-query" className="sr-only">
              Product, company, or website URL
            </label>
            <Input
              id="refer-query"
              value={query}
              onChange={(event) => dispatch(setQuery(event.target.value))}
              placeholder="Refer Anything.."
              disabled={searching}
              className="h-12 border-0 text-base shadow-none focus-visible:ring-0"
              autoComplete="off"
            />
            <Button type="submit" size="icon" aria-label="Search" disabled={blank || searching} className="size-12 rounded-lg">
              <ArrowRight aria-hidden="true" />
            </Button>
          </form>
        </CardContent>
      </Card>
      <p className="mt-4 text-xs text-muted-foreground">Smart matching of partner programs arrives with a later release.</p>
    </section>
  );
}
