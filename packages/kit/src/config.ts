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
  /** JetStream subject prefix and stream name; lets several environments share one NATS server. */
  NATS_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9_-]+$/i)
    .default('events'),
  /** OpenTelemetry: where spans go over OTLP/HTTP (JSON), e.g. http://otel-collector:4318; tracing is off unset. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
};

export const databaseConfig = {
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL'),
};
