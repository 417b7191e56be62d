import { z } from 'zod';

export class ConfigError extends Error {}

/** Reads and validates configuration once at boot; a bad environment stops with every problem named. */
export function readConfig<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): z.output<S> {
  // An empty variable (`FOO=` in a compose file) means "not set", so defaults apply.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = schema.safeParse(given);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/** Shared by every service and the gateway. */
export const baseConfig = {
  HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  INTERNAL_SECRET: z.string().min(32, 'must be at least 32 characters (e.g. `openssl rand -hex 32`)'),
  NATS_URL: z.string().min(1).optional(),
  /** Serves Prometheus metrics on this port (GET /metrics), apart from the app's; unset: no metrics endpoint. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** JetStream subject prefix and stream name; lets several environments share one NATS server. */
  NATS_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9_-]+$/i)
    .default('events'),
  /** What /readyz and the gateway's /status report as the running version (the image tag, a commit). */
  APP_VERSION: z.string().max(100).default('dev'),
  /** OpenTelemetry: where spans go over OTLP/HTTP (JSON), e.g. http://otel-collector:4318; tracing is off unset. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
};

/** One subscriber's consumer settings, as `SUBSCRIBERS` gives them (see ConsumerOptions in events/bus.ts). */
const consumerSettings = z
  .object({
    concurrency: z.number().int().min(1).max(256).optional(),
    prefetch: z.number().int().min(1).max(1000).optional(),
    maxAckPending: z.number().int().min(1).max(100_000).optional(),
    ackWaitMs: z.number().int().min(1000).max(3_600_000).optional(),
    maxDeliver: z.number().int().min(1).max(1000).optional(),
  })
  .strict();

/** Every service that owns data: its database, its connection budget, its consumers' settings. */
export const databaseConfig = {
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL'),
  /** The most PostgreSQL connections the process keeps (its Prisma pool and its pg pool together). */
  DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(200).default(6),
  /** JSON by subscriber id, e.g. {"ai-intro-draft":{"concurrency":4,"ackWaitMs":60000}}. */
  SUBSCRIBERS: z
    .string()
    .transform((text, context) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({ code: 'custom', message: 'must be JSON, e.g. {"ai-intro-draft":{"concurrency":4}}' });
        return z.NEVER;
      }
    })
    .pipe(z.record(z.string(), consumerSettings))
    .optional(),
};
