import { lazy, Suspense } from 'react';
import { useHasToasted } from '@/hooks/use-toast';

const Toaster = lazy(() => import('./toaster').then((m) => ({ default: m.Toaster })));

/** Loads the toast UI (Radix) with the first toast, keeping it out of the first page's bundle. */
export function ToasterHost() {
  const needed = useHasToasted();
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
