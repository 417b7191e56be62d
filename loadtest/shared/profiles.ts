/**
 * Load profiles (`PROFILE=smoke|load|stress|soak`) and thresholds, as plain data for the k6 scripts.
 * RATE is journeys per second across the whole mix at the load level; each journey gets its WEIGHT of it.
 */
import type { JourneyName } from './journeys.ts';

export type ProfileName = 'smoke' | 'load' | 'stress' | 'soak';
export const PROFILE_NAMES: ProfileName[] = ['smoke', 'load', 'stress', 'soak'];

/** The mix: what a busy hour looks like (browsing dashboards dominates; sign-ups are rare). */
export const WEIGHTS: Record<JourneyName, number> = {
  teeUps: 0.35,
  search: 0.2,
  createReferral: 0.15,
  vendorInbox: 0.15,
  impact: 0.1,
  signUp: 0.05,
};

/**
 * Pass/fail of a run. Latency holds for the mix; search (a model call when configured) and sign-up (an
 * argon2 hash) get their own, looser bounds.
 */
export const THRESHOLDS: Record<string, string[]> = {
  http_req_failed: ['rate<0.01'],
  checks: ['rate>0.99'],
  http_req_duration: ['p(95)<500', 'p(99)<1500'],
  'http_req_duration{journey:search}': ['p(95)<1000', 'p(99)<3000'],
  'http_req_duration{journey:signUp}': ['p(95)<1000', 'p(99)<2000'],
};

export interface Stage {
  target: number;
  duration: string;
}

export type ScenarioShape =
  | { executor: 'per-vu-iterations'; vus: number; iterations: number; maxDuration: string }
  | { executor: 'constant-arrival-rate'; perMinute: number; duration: string }
  | { executor: 'ramping-arrival-rate'; stages: Stage[] };

/** How one journey runs under a profile, given its share of the rate (journeys per minute). */
export function shapeOf(profile: ProfileName, perMinute: number, duration?: string): ScenarioShape {
  const at = (factor: number) => Math.max(1, Math.round(perMinute * factor));
  switch (profile) {
    case 'smoke':
      return { executor: 'per-vu-iterations', vus: 1, iterations: 3, maxDuration: '1m' };
    case 'load':
      return {
        executor: 'ramping-arrival-rate',
        stages: [
          { target: at(1), duration: '2m' },
          { target: at(1), duration: duration ?? '10m' },
          { target: 0, duration: '1m' },
        ],
      };
    case 'stress':
      return {
        executor: 'ramping-arrival-rate',
        stages: [1, 2, 3, 4]
          .flatMap((factor) => [
            { target: at(factor), duration: '1m' },
            { target: at(factor), duration: duration ?? '3m' },
          ])
          .concat([{ target: 0, duration: '1m' }]),
      };
    case 'soak':
      return { executor: 'constant-arrival-rate', perMinute: at(1), duration: duration ?? '2h' };
  }
}
