/**
 * The smoke scenario without k6: every journey of ../shared/journeys.ts, a few passes each, driven by
 * autocannon (one connection, the steps in order, the session cookie carried along), and every answer
 * compared with the status its step expects. `npm test` runs it against a started app; by hand:
 *   BASE_URL=http://localhost:3000 npm run loadtest:smoke      (after npm run loadtest:seed)
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { JOURNEY_NAMES, JOURNEYS, type JourneyName, type Seed, type VirtualUser } from '../shared/journeys.ts';
import { DEFAULT_SEED_FILE } from './seed.ts';

export interface StepOutcome {
  journey: JourneyName;
  step: string;
  expected: number;
  statuses: number[];
  /** What an unexpected answer said (first one). */
  unexpected?: string;
}

export interface SmokeReport {
  steps: StepOutcome[];
  failures: StepOutcome[];
  /** Connection errors and timeouts. */
  errors: number;
  latencyP99: Partial<Record<JourneyName, number>>;
}

interface Context {
  vu?: VirtualUser;
  cookies?: Record<string, string>;
}

function rememberCookies(context: Context, headers: Record<string, string | string[]>) {
  const lines = Object.entries(headers)
    .filter(([name]) => name.toLowerCase() === 'set-cookie')
    .flatMap(([, value]) => (Array.isArray(value) ? value : [value]));
  for (const line of lines) {
    const [pair = ''] = line.split(';');
    const index = pair.indexOf('=');
    const name = pair.slice(0, index).trim();
    const value = pair.slice(index + 1).trim();
    context.cookies ??= {};
    if (value && !/max-age=0/i.test(line)) context.cookies[name] = value;
    else delete context.cookies[name];
  }
}

async function runJourney(baseUrl: string, seed: Seed, name: JourneyName, passes: number) {
  const { steps } = JOURNEYS[name];
  const outcomes: StepOutcome[] = steps.map((step) => ({
    journey: name,
    step: step.name,
    expected: step.expect,
    statuses: [],
  }));
  let pass = 0;
  const requests = steps.map((step, index) => ({
    method: step.method,
    path: '/',
    setupRequest: (request: autocannon.Request, context: Context) => {
      // The context starts empty at each pass through the steps.
      if (index === 0 || !context.vu) context.vu = { index: 1, iteration: pass++, seed, vars: {} };
      const body = step.body?.(context.vu);
      const cookie = Object.entries(context.cookies ?? {})
        .map(([key, value]) => `${key}=${value}`)
        .join('; ');
      return {
        ...request,
        method: step.method,
        path: step.path(context.vu),
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(cookie ? { cookie } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      };
    },
    onResponse: (status: number, body: string, context: Context, headers?: Record<string, string | string[]>) => {
      const outcome = outcomes[index]!;
      outcome.statuses.push(status);
      rememberCookies(context, headers ?? {});
      if (status !== step.expect) {
        outcome.unexpected ??= `${status}: ${body.slice(0, 300)}`;
        return;
      }
      if (step.capture && context.vu) step.capture(context.vu, JSON.parse(body));
    },
  }));
  const result = await autocannon({
    url: baseUrl,
    connections: 1,
    pipelining: 1,
    amount: steps.length * passes,
    timeout: 20,
    requests: requests as unknown as autocannon.Request[],
  });
  return { outcomes, errors: result.errors + result.timeouts, p99: result.latency.p99 };
}

/** Runs the journeys (all by default), `passes` times each, one after the other. */
export async function runSmoke(options: {
  baseUrl: string;
  seed: Seed;
  passes?: number;
  journeys?: JourneyName[];
}): Promise<SmokeReport> {
  const report: SmokeReport = { steps: [], failures: [], errors: 0, latencyP99: {} };
  for (const name of options.journeys ?? JOURNEY_NAMES) {
    const { outcomes, errors, p99 } = await runJourney(options.baseUrl, options.seed, name, options.passes ?? 2);
    report.steps.push(...outcomes);
    report.errors += errors;
    report.latencyP99[name] = p99;
  }
  report.failures = report.steps.filter(
    (step) => step.statuses.length === 0 || step.statuses.some((status) => status !== step.expected),
  );
  return report;
}

if (import.meta.main) {
  const baseUrl = (process.env.BASE_URL ?? '').replace(/\/$/, '');
  if (!baseUrl) {
    console.error('Set BASE_URL, e.g. BASE_URL=http://localhost:3000 npm run loadtest:smoke');
    process.exit(1);
  }
  const file = process.env.SEED_FILE ?? DEFAULT_SEED_FILE;
  const seed = JSON.parse(readFileSync(file, 'utf8')) as Seed;
  const report = await runSmoke({ baseUrl, seed, passes: Number(process.env.PASSES ?? 2) });
  for (const step of report.steps) {
    const ok = !report.failures.includes(step);
    console.log(
      `${ok ? 'ok  ' : 'FAIL'} ${step.journey.padEnd(15)} ${step.step.padEnd(28)} ${step.statuses.join(',')} (expected ${step.expected})${step.unexpected ? `  ${step.unexpected}` : ''}`,
    );
  }
  console.log('p99 ms by journey:', JSON.stringify(report.latencyP99), `connection errors: ${report.errors}`);
  process.exit(report.failures.length || report.errors ? 1 : 0);
}
