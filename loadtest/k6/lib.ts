/**
 * Runs the shared journeys (../shared/journeys.ts) in k6: one cookie jar per virtual user, signed in once
 * and again after a 401, each request tagged with its journey and step, and checked for its status.
 *   BASE_URL   the app, e.g. https://staging.example.com (required)
 *   PROFILE    smoke (default), load, stress or soak (../shared/profiles.ts)
 *   RATE       journeys per second for the whole mix at the load level (default 10)
 *   DURATION   the steady part of load, stress (each step) and soak
 *   SEED_FILE  what `npm run loadtest:seed` wrote (default loadtest/.seed.json)
 */
import { check } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import type { Options, Scenario } from 'k6/options';
import type { Journey, JourneyName, Seed, VirtualUser } from '../shared/journeys.ts';
import { PROFILE_NAMES, shapeOf, THRESHOLDS, WEIGHTS, type ProfileName } from '../shared/profiles.ts';

const BASE_URL = (__ENV.BASE_URL ?? '').replace(/\/$/, '');
const PROFILE = (__ENV.PROFILE ?? 'smoke') as ProfileName;
const RATE = Number(__ENV.RATE ?? '10');
if (!BASE_URL) throw new Error('Set BASE_URL, e.g. k6 run -e BASE_URL=https://staging.example.com loadtest/k6/all.ts');
if (!PROFILE_NAMES.includes(PROFILE)) throw new Error(`PROFILE must be one of ${PROFILE_NAMES.join(', ')}`);

// Read once at init (k6 resolves the path from this file's folder).
const seed = JSON.parse(open(__ENV.SEED_FILE ?? '../.seed.json')) as Seed;

/** k6 options for the journeys given: one scenario each, shaped by PROFILE, and the thresholds. */
export function optionsFor(journeys: JourneyName[], exec: 'default' | 'byName'): Options {
  const scenarios: Record<string, Scenario> = {};
  for (const journey of journeys) {
    const shape = shapeOf(PROFILE, RATE * 60 * WEIGHTS[journey], __ENV.DURATION);
    const common = { exec: exec === 'default' ? 'default' : journey, tags: { journey } };
    const vus = { preAllocatedVUs: 5, maxVUs: Math.max(20, Math.ceil(RATE * WEIGHTS[journey] * 20)) };
    scenarios[journey] =
      shape.executor === 'per-vu-iterations'
        ? {
            ...common,
            executor: shape.executor,
            vus: shape.vus,
            iterations: shape.iterations,
            maxDuration: shape.maxDuration,
          }
        : shape.executor === 'constant-arrival-rate'
          ? {
              ...common,
              ...vus,
              executor: shape.executor,
              rate: shape.perMinute,
              timeUnit: '1m',
              duration: shape.duration,
            }
          : { ...common, ...vus, executor: shape.executor, startRate: 0, timeUnit: '1m', stages: shape.stages };
  }
  const thresholds = Object.fromEntries(
    Object.entries(THRESHOLDS).filter(([metric]) => {
      const journey = /journey:(\w+)/.exec(metric)?.[1];
      return !journey || journeys.includes(journey as JourneyName);
    }),
  );
  return {
    scenarios,
    thresholds,
    // The session cookie is kept across iterations: a virtual user signs in once, as a person would.
    noCookiesReset: true,
    summaryTrendStats: ['avg', 'p(50)', 'p(95)', 'p(99)', 'max'],
  };
}

/** Who this virtual user's cookie jar is signed in as (per VU: each has its own runtime). */
let signedInAs: string | null = null;

export function runJourney(journey: Journey): void {
  const vu: VirtualUser = { index: exec.vu.idInTest, iteration: exec.vu.iterationInScenario, seed, vars: {} };
  for (const step of journey.steps) {
    const body = step.body?.(vu);
    const email = step.operation === 'login' ? (body as { email: string }).email : null;
    if (step.signIn && email === signedInAs) continue;
    const response = http.request(step.method, `${BASE_URL}${step.path(vu)}`, body ? JSON.stringify(body) : null, {
      headers: body ? { 'content-type': 'application/json' } : {},
      tags: { name: step.name, journey: journey.name },
      responseCallback: http.expectedStatuses(step.expect),
    });
    const ok = check(response, {
      [`${journey.name}: ${step.name} answers ${step.expect}`]: (r) => r.status === step.expect,
    });
    if (response.status === 401 || step.operation === 'register' || step.operation === 'logout') signedInAs = null;
    if (!ok) return; // later steps depend on this one
    if (email) signedInAs = email;
    step.capture?.(vu, response.json());
  }
}
