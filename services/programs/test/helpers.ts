import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { identitySigner } from '@app/kit';
import { startTestService, TEST_SECRET, type ServiceUnderTest } from '@app/testing';
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

/** Row counts and the last change: bad input must leave them as they were. */
export async function snapshot(sql: pg.Pool) {
  const { rows } = await sql.query(
    `SELECT (SELECT count(*)::int FROM programs.programs) programs,
            (SELECT count(*)::int FROM programs.program_documents) documents,
            (SELECT count(*)::int FROM programs.outbox_events) outbox,
            (SELECT coalesce(max(updated_at), 'epoch') FROM programs.programs) last_update`,
  );
  return rows[0] as Record<string, unknown>;
}
