import type { User } from '@app/contracts';
import { lazy } from 'react';

/*
 * The lead criteria and bounty pages, one hop from the entry chunk (lazy-pages.ts): zod's config has run by
 * the time this chunk loads them. Written with JSX, like every screen chunk, so that React and its JSX
 * runtime stay one shared chunk.
 */
const Onboarding = lazy(() =>
  import('@/features/onboarding/components/onboarding-page').then((m) => ({ default: m.OnboardingPage })),
);
const Bounties = lazy(() =>
  import('@/features/onboarding/components/bounties-page').then((m) => ({ default: m.BountiesPage })),
);

export function OnboardingPage(props: { user?: User | null }) {
  return <Onboarding {...props} />;
}

export function BountiesPage(props: { user?: User | null }) {
  return <Bounties {...props} />;
}
