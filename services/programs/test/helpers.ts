import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { EventEnvelope, EventPayload } from '@app/contracts';
import { identitySigner, outboxEvent } from '@app/kit';
import { eventually, startTestService, TEST_SECRET, type ServiceUnderTest } from '@app/testing';
import type pg from 'pg';
import { readProgramsConfig } from '../src/config.ts';
import { createProgramsService, type ProgramsService } from '../src/service.ts';
import { startEmbeddedS3, type EmbeddedS3 } from '../src/storage.ts';

const signer = identitySigner(TEST_SECRET);

export interface TestUser {
  userId: string;
  headers: Record<string, string>;
}

/** A signed-in user as the gateway would vouch for it. */
export function testUser(isAdmin: boolean, name = isAdmin ? 'admin' : 'user'): TestUser {
  const userId = randomUUID();
  const identity = signer.sign(
    {
      userId,
      sessionId: randomUUID(),
      email: `${name}-${userId.slice(0, 8)}@example.com`,
      isAdmin,
      emailVerified: true,
    },
    60,
  );
  return { userId, headers: { 'x-identity': identity } };
}

/** A `vendor.saved` as the profiles service publishes it: a verified vendor with its members unless said. */
export function vendorSaved(
  payload: Partial<Omit<EventPayload<'vendor.saved'>, 'members'>> & { vendorId: string; members: TestUser[] },
): EventEnvelope<'vendor.saved'> {
  const { members, ...rest } = payload;
  const row = outboxEvent('vendor.saved', {
    version: 1,
    name: 'Acme',
    domain: 'acme.example.com',
    companyKey: 'acme',
    leadInbox: 'leads@acme.example.com',
    verified: true,
    ...rest,
    members: members.map((member, index) => ({
      userId: member.userId,
      email: `member${index}@acme.example.com`,
      name: `Member ${index}`,
      role: index === 0 ? ('owner' as const) : ('member' as const),
    })),
  });
  return { id: row.id, name: row.name, payload: row.payload, occurredAt: row.occurredAt.toISOString() };
}

/** Publishes events to the service and waits until its subscriber has handled each. */
export async function deliver(ctx: TestContext, ...events: EventEnvelope[]): Promise<void> {
  for (const event of events) await ctx.bus.publish(event);
  await eventually(
    async () => {
      const { rows } = await ctx.sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM programs.processed_events WHERE subscriber = 'programs-vendors' AND event_id = ANY($1::text[])",
        [events.map((event) => event.id)],
      );
      return rows[0]!.n === events.length;
    },
    10_000,
    'vendor.saved handled',
  );
}

export const programInput = (overrides: Record<string, unknown> = {}) => ({
  name: 'Acme Partner Program',
  description: 'Acme sells accounting software to startups.',
  website: 'https://acme.example.com/partners',
  rewardDetails: '20% of the first-year contract value, paid quarterly.',
  ...overrides,
});

/** A multipart/form-data body with one file part (and optional text fields), as a browser sends it. */
export function multipart(
  file: { name: string; bytes: Buffer; type?: string; field?: string } | null,
  fields: Record<string, string> = {},
) {
  const boundary = `----test${randomUUID().replaceAll('-', '')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export interface TestContext extends ServiceUnderTest<ProgramsService> {
  s3: EmbeddedS3;
  /** The keys in the documents bucket. */
  objectKeys(): Promise<string[]>;
  /** An object's bytes, read back with a separate client. */
  getObject(key: string): Promise<Buffer>;
}

/** The service on a fresh database and a real S3-compatible server (s3rver) with an in-process bus. */
export async function startPrograms(env: Record<string, string> = {}): Promise<TestContext> {
  const dir = mkdtempSync(path.join(tmpdir(), 'programs-s3-'));
  // The bucket is left for the service to create at start.
  const s3 = await startEmbeddedS3(dir, `docs-${randomUUID().slice(0, 8)}`);
  const bucket = env.S3_BUCKET ?? `bucket-${randomUUID().slice(0, 8)}`;
  const harness = await startTestService(['program.saved'], ({ databaseUrl, bus }) =>
    createProgramsService({
      config: readProgramsConfig({
        DATABASE_URL: databaseUrl,
        INTERNAL_SECRET: TEST_SECRET,
        S3_ENDPOINT: s3.endpoint,
        S3_BUCKET: bucket,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        ...env,
      }),
      bus,
      logger: false,
    }),
  );
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  return {
    ...harness,
    s3,
    async objectKeys() {
      const list = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (list.Contents ?? []).map((object) => object.Key ?? '');
    },
    async getObject(key) {
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await object.Body!.transformToByteArray());
    },
    async close() {
      client.destroy();
      await harness.close();
      await s3.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Row counts, every program as stored and the last change: bad input must leave them as they were. */
export async function snapshot(sql: pg.Pool) {
  const { rows } = await sql.query(
    `SELECT (SELECT count(*)::int FROM programs.programs) programs,
            (SELECT md5(coalesce(string_agg(p::text, ',' ORDER BY p.id), '')) FROM programs.programs p) program_rows,
            (SELECT count(*)::int FROM programs.program_documents) documents,
            (SELECT count(*)::int FROM programs.outbox_events) outbox,
            (SELECT coalesce(max(updated_at), 'epoch') FROM programs.programs) last_update`,
  );
  return rows[0] as Record<string, unknown>;
}
