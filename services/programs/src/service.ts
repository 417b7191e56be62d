import multipart from '@fastify/multipart';
import { PROGRAM_DOCUMENT_MAX_BYTES } from '@app/contracts';
import {
  connecting,
  createDataService,
  defineService,
  registerOperations,
  type DataService,
  type ServiceOptions,
} from '@app/kit';
import { languageModel } from '@app/llm';
import { readProgramsConfig, visionEnabled, type ProgramsConfig } from './config.ts';
import { documentAnalysis } from './documents.ts';
import type { ExtractionLimits } from './extract.ts';
import { PrismaClient } from './generated/prisma/client.ts';
import { programUseCases } from './programs.ts';
import { programsRepository } from './repository.ts';
import { programRoutes } from './routes.ts';
import { vendorsSubscriber } from './subscribers/vendors.ts';
import { s3Storage, type DocumentStorage } from './storage.ts';

/** The largest request: a 10 MB document plus the multipart framing. */
export const PROGRAMS_BODY_LIMIT = PROGRAM_DOCUMENT_MAX_BYTES + 512 * 1024;

export type ProgramsService = DataService<PrismaClient> & { storage: DocumentStorage };

/**
 * Builds the programs service: migrations applied, the documents bucket created when missing, operations
 * registered, the outbox relay running once the app is ready. Not listening yet. `storage` replaces the
 * S3 storage built from S3_* (tests, other backends); `extractionLimits` the documents' reading limits (tests).
 */
export async function createProgramsService(
  options: ServiceOptions<ProgramsConfig> & { storage?: DocumentStorage; extractionLimits?: ExtractionLimits },
): Promise<ProgramsService> {
  const { config } = options;
  const storage =
    options.storage ??
    s3Storage({
      endpoint: config.S3_ENDPOINT,
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    });
  // The first call to the storage: unreachable, the start fails in one line naming S3_ENDPOINT.
  await connecting('S3-compatible storage', 'S3_ENDPOINT', config.S3_ENDPOINT ?? 'https://s3.amazonaws.com', () =>
    storage.ensureBucket(),
  );
  const service = await createDataService({
    name: 'programs',
    config,
    migrations: new URL('../prisma/migrations', import.meta.url),
    bus: options.bus,
    logger: options.logger,
    bodyLimit: PROGRAMS_BODY_LIMIT,
    prisma: (adapter) => new PrismaClient({ adapter }),
  });
  const { app, prisma } = service;
  await app.register(multipart, {
    limits: {
      fileSize: PROGRAM_DOCUMENT_MAX_BYTES,
      files: 1,
      fields: 10,
      fieldSize: 10_000,
      parts: 20,
      headerPairs: 100,
    },
  });
  const repository = programsRepository(prisma);
  registerOperations(
    app,
    'programs',
    programRoutes({
      useCases: programUseCases({ transaction: service.transaction, repository }),
      analyzeDocument: documentAnalysis({
        repository,
        storage,
        model: languageModel(config, app.log),
        vision: visionEnabled(config),
        ...(options.extractionLimits ? { limits: options.extractionLimits } : {}),
      }),
    }),
  );
  await service.subscribe(vendorsSubscriber);

  return {
    ...service,
    storage,
    async close() {
      await service.close();
      storage.close();
    },
  };
}

export const programsService = defineService({
  name: 'programs',
  readConfig: readProgramsConfig,
  port: (config) => config.PROGRAMS_PORT,
  create: createProgramsService,
});
