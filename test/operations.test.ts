/**
 * Contract <-> route parity: every operation of the contract is served by the service that owns it, and
 * no service can serve a route that is not an operation of its contract.
 */
import { operationList, routePath, SERVICE_NAMES, type ServiceName } from '@app/contracts';
import { createAiService, readAiConfig } from '@app/ai-service';
import { createAuthService, readAuthConfig } from '@app/auth-service';
import type { EventBus } from '@app/kit';
import { createMailService, readMailConfig } from '@app/mail-service';
import { createProfilesService, readProfilesConfig } from '@app/profiles-service';
import { createProgramsService, readProgramsConfig, startEmbeddedS3, type EmbeddedS3 } from '@app/programs-service';
import { createReferralsService, readReferralsConfig } from '@app/referrals-service';
import { freshDatabase, startMailCatcher, TEST_SECRET, testBus, type MailCatcher } from '@app/testing';
import type { FastifyInstance } from 'fastify';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let bus: EventBus;
let catcher: MailCatcher;
let s3: EmbeddedS3;
const apps = new Map<ServiceName, { app: FastifyInstance; close(): Promise<void> }>();

beforeAll(async () => {
  db = await freshDatabase();
  bus = await testBus(db.url);
  catcher = await startMailCatcher();
  s3 = await startEmbeddedS3(mkdtempSync(join(tmpdir(), 's3-')));
  const env = {
    DATABASE_URL: db.url,
    INTERNAL_SECRET: TEST_SECRET,
    SMTP_URL: catcher.url,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_BUCKET: s3.bucket,
    LOG_LEVEL: 'silent',
  };
  const options = { bus, logger: false as const };
  apps.set('auth', await createAuthService({ config: readAuthConfig(env), ...options }));
  apps.set('mail', await createMailService({ config: readMailConfig(env), ...options }));
  apps.set('ai', await createAiService({ config: readAiConfig(env), ...options }));
  apps.set('referrals', await createReferralsService({ config: readReferralsConfig(env), ...options }));
  apps.set('programs', await createProgramsService({ config: readProgramsConfig(env), ...options }));
  apps.set('profiles', await createProfilesService({ config: readProfilesConfig(env), ...options }));
}, 60_000);

afterAll(async () => {
  await bus?.close();
  for (const service of apps.values()) await service.close();
  await s3?.close();
  await catcher?.close();
  await db?.drop();
});

describe('contract <-> route parity', () => {
  it.each(SERVICE_NAMES)('%s refuses to serve a route that is not in its contract', (name) => {
    const { app } = apps.get(name)!;
    // Before the app starts (routes are fixed after). Another service's operation is not this one's either.
    const foreign = operationList.find((op) => op.service !== name)!;
    for (const url of ['/api/not-in-the-contract', routePath(foreign.path)]) {
      expect(() => app.get(url, async () => ({}))).toThrow(/not an operation of the/);
    }
  });

  it.each(SERVICE_NAMES)('%s serves every operation of its contract', async (name) => {
    const { app } = apps.get(name)!;
    await app.ready();
    const own = operationList.filter((op) => op.service === name);
    expect(own.length).toBeGreaterThan(0);
    for (const op of own) {
      expect(app.hasRoute({ method: op.method, url: routePath(op.path) }), `${op.method} ${op.path}`).toBe(true);
    }
  });
});
