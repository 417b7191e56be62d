import { Compass } from 'lucide-react';

export function DiscoverPage() {
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-center justify-center px-4 py-24 text-center">
      <Compass className="size-12 text-primary" aria-hidden="true" />
      <h1 className="mt-4 text-3xl font-bold tracking-tight">Discover</h1>
      <p className="mt-2 text-lg text-muted-foreground">Coming Soon</p>
    </section>
  );
}
