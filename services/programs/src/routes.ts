import { createHash, randomUUID } from 'node:crypto';
import {
  CreateProgramRequest,
  PROGRAM_DOCUMENT_MAX_BYTES,
  PROGRAM_MESSAGES,
  UpdateProgramRequest,
  type Program,
  type ProgramAnalysis,
} from '@app/contracts';
import { HttpError, outboxEvent, parse, type Identity, type OutboxRelay } from '@app/kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { analyzeImage, analyzeText, type Analysis } from './analyze.ts';
import { CONTENT_TYPES, detectType } from './detect.ts';
import { documentText, UnreadableDocument } from './extract.ts';
import type { Prisma, PrismaClient, Program as ProgramRow } from './generated/prisma/client.ts';
import type { LanguageModel } from '@app/llm';
import type { DocumentStorage } from './storage.ts';

export const MESSAGES = {
  invalidId: 'Invalid program id',
  emptyFile: 'The document is empty',
  unreadable:
    'The document could not be read. It may be damaged or protected; please try another file or use Manual Entry.',
  noText: 'No text was found in the document. Please upload a document with text, or use Manual Entry.',
  imageFailed: 'The image could not be analyzed right now. Please try again later or use Manual Entry.',
} as const;

export interface ProgramRoutesDeps {
  prisma: PrismaClient;
  relay: OutboxRelay;
  storage: DocumentStorage;
  model: LanguageModel | null;
  vision: boolean;
}

const toProgram = (row: ProgramRow): Program => ({
  id: row.id,
  name: row.name,
  description: row.description,
  website: row.website,
  rewardDetails: row.rewardDetails,
  companyName: row.companyName,
  isActive: row.isActive,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const savedEvent = (row: ProgramRow, requestId: string) =>
  outboxEvent(
    'program.saved',
    {
      programId: row.id,
      name: row.name,
      description: row.description,
      website: row.website,
      rewardDetails: row.rewardDetails,
      companyName: row.companyName,
      isActive: row.isActive,
    },
    requestId,
  );

const ProgramId = z.object({ id: z.uuid(MESSAGES.invalidId) });

/** An empty or blank companyName means "no vendor company". */
const company = (value: string | undefined) => (value === undefined ? undefined : value.trim() || null);

export function programRoutes(app: FastifyInstance, deps: ProgramRoutesDeps) {
  const { prisma, relay, storage, model, vision } = deps;
  const user = { preHandler: app.requireUser };
  const admin = (request: FastifyRequest): Identity => {
    const identity = app.userOf(request);
    if (!identity.isAdmin) throw new HttpError(403, PROGRAM_MESSAGES.adminOnly);
    return identity;
  };

  /** Administrators see every program; everyone else only the active ones (inactive ones are drafts). */
  app.get('/api/programs/all', user, async (request) => {
    const identity = app.userOf(request);
    const rows = await prisma.program.findMany({
      where: identity.isAdmin ? {} : { isActive: true },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    });
    return rows.map(toProgram);
  });

  app.post('/api/programs', user, async (request, reply) => {
    const identity = admin(request);
    const input = parse(CreateProgramRequest, request.body);
    const row = await prisma.$transaction(async (tx) => {
      const created = await tx.program.create({
        data: {
          name: input.name,
          description: input.description,
          website: input.website,
          rewardDetails: input.rewardDetails,
          companyName: company(input.companyName) ?? null,
          isActive: input.isActive,
          createdBy: identity.userId,
        },
      });
      await tx.outboxEvent.create({ data: savedEvent(created, request.id) });
      return created;
    });
    relay.kick();
    return reply.status(201).send(toProgram(row));
  });

  app.patch('/api/programs/:id', user, async (request) => {
    admin(request);
    const { id } = parse(ProgramId, request.params);
    const parsed = parse(UpdateProgramRequest, request.body);
    // The contract's partial() keeps isActive's default (true): only the fields the client sent count, so a
    // rename never switches a program back on, and {} is 'Nothing to update'.
    const sent = new Set(request.body && typeof request.body === 'object' ? Object.keys(request.body) : []);
    const input = Object.fromEntries(Object.entries(parsed).filter(([key]) => sent.has(key))) as Partial<typeof parsed>;
    if (Object.keys(input).length === 0) throw new HttpError(400, 'Nothing to update');
    const data: Prisma.ProgramUpdateInput = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.website !== undefined ? { website: input.website } : {}),
      ...(input.rewardDetails !== undefined ? { rewardDetails: input.rewardDetails } : {}),
      ...(input.companyName !== undefined ? { companyName: company(input.companyName) } : {}),
      ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
    };
    const row = await prisma.$transaction(async (tx) => {
      const existing = await tx.program.findUnique({ where: { id }, select: { id: true } });
      if (!existing) throw new HttpError(404, PROGRAM_MESSAGES.notFound);
      const updated = await tx.program.update({ where: { id }, data });
      await tx.outboxEvent.create({ data: savedEvent(updated, request.id) });
      return updated;
    });
    relay.kick();
    return toProgram(row);
  });

  app.post('/api/analyze-referral-program', user, async (request) => {
    const identity = admin(request);
    if (!request.isMultipart()) throw new HttpError(400, PROGRAM_MESSAGES.fileRequired);
    const part = await request.file();
    if (!part || part.fieldname !== 'file') throw new HttpError(400, PROGRAM_MESSAGES.fileRequired);
    let bytes: Buffer;
    try {
      bytes = await part.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
        throw new HttpError(413, PROGRAM_MESSAGES.tooLarge);
      throw error;
    }
    if (bytes.length === 0) throw new HttpError(400, MESSAGES.emptyFile);
    if (bytes.length > PROGRAM_DOCUMENT_MAX_BYTES) throw new HttpError(413, PROGRAM_MESSAGES.tooLarge);

    // The content decides the type; the name and the browser's MIME type are not trusted.
    const type = detectType(bytes);
    if (!type) throw new HttpError(415, PROGRAM_MESSAGES.unsupportedType);
    const image = type === 'png' || type === 'jpeg';
    if (image && !(vision && model)) throw new HttpError(422, PROGRAM_MESSAGES.imageNeedsVision);

    // Read the text before storing, so an unreadable document leaves nothing behind.
    let text = '';
    if (!image) {
      try {
        text = await documentText(type, bytes);
      } catch (error) {
        if (error instanceof UnreadableDocument) {
          request.log.info({ type, reason: error.message }, 'unreadable program document');
          throw new HttpError(422, MESSAGES.unreadable);
        }
        throw error;
      }
      if (!text.trim()) throw new HttpError(422, MESSAGES.noText);
    }

    const documentId = randomUUID();
    const fileName = (part.filename || 'document').slice(0, 255);
    const storageKey = `documents/${documentId}.${type}`;
    await storage.put(storageKey, bytes, CONTENT_TYPES[type]);

    let analysis: Analysis | null;
    if (image && model) {
      analysis = await analyzeImage(bytes, CONTENT_TYPES[type], fileName, model, request.log);
    } else {
      analysis = await analyzeText(text, fileName, model, request.log);
    }
    const result: ProgramAnalysis | null = analysis ? { ...analysis, documentId } : null;
    await prisma.programDocument.create({
      data: {
        id: documentId,
        storageKey,
        originalFileName: fileName,
        detectedType: type,
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        uploadedBy: identity.userId,
        ...(result ? { analysis: result } : {}),
      },
    });
    if (!result) throw new HttpError(503, MESSAGES.imageFailed);
    return result;
  });
}
