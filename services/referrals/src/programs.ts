import type { EventEnvelope } from '@app/contracts';
import { INTERNAL_AUTH_HEADER, internalAuthToken } from '@app/kit';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { ReferralsConfig } from './config.ts';
import type { Tx } from './figures.ts';
import type { PrismaClient } from './generated/prisma/client.ts';
import { companyKey } from './projects.ts';

interface ProjectForProgram {
  id: string;
  productName: string;
  companyName: string;
  website: string | null;
  referralProgram: string | null;
  programCheckedAt: Date | null;
}

/**
 * Somewhere a vendor's referral program may be known. Asked in order when the project has none yet;
 * null means "not known here". The programs service (issue 4: active programs of the vendor) becomes
 * the first source once it exists; the AI provider stays the fallback.
 */
export interface ProgramSource {
  name: string;
  find(project: ProjectForProgram): Promise<string | null>;
}

/** The program's text, or null: the route then answers REFERRAL_MESSAGES.noProgram. */
export type ReferralProgramFinder = (project: ProjectForProgram) => Promise<string | null>;

/**
 * Text the web would read as "no program" (spec 4: starts with 'NO' or mentions 'no referral program')
 * is not a program, whoever says it.
 */
export const isProgramText = (text: string) => !text.startsWith('NO') && !/no referral program/i.test(text);

const AiAnswer = z.object({ referralProgram: z.string().trim().max(20_000).nullable() });

/** The AI service's internal endpoint; any failure (down, slow, malformed) counts as "not known". */
export function aiProgramSource(
  config: { AI_URL: string } & Pick<ReferralsConfig, 'AI_TIMEOUT_MS' | 'INTERNAL_SECRET'>,
): ProgramSource {
  const url = `${config.AI_URL.replace(/\/+$/, '')}/internal/referral-program`;
  const token = internalAuthToken(config.INTERNAL_SECRET);
  return {
    name: 'ai',
    async find(project) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [INTERNAL_AUTH_HEADER]: token },
        body: JSON.stringify({
          productName: project.productName,
          companyName: project.companyName,
          website: project.website,
        }),
        signal: AbortSignal.timeout(config.AI_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`AI service answered ${response.status}`);
      return AiAnswer.parse(await response.json()).referralProgram || null;
    },
  };
}

const nameKey = (name: string) => name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Stores a `program.saved` (programs service) in the referrals schema, once per event (`handleOnce`);
 * an event older than the stored row (late redelivery) changes nothing.
 */
export async function storeProgram(tx: Tx, event: EventEnvelope<'program.saved'>): Promise<void> {
  const { programId, name, rewardDetails, companyName, isActive } = event.payload;
  const savedAt = new Date(event.occurredAt);
  const existing = await tx.program.findUnique({ where: { id: programId }, select: { savedAt: true } });
  if (existing && existing.savedAt > savedAt) return;
  const data = {
    name,
    nameKey: nameKey(name),
    rewardDetails,
    companyName,
    companyKey: companyName ? companyKey(companyName) || null : null,
    isActive,
    savedAt,
  };
  await tx.program.upsert({ where: { id: programId }, create: { id: programId, ...data }, update: data });
}

/**
 * The vendor's ACTIVE program for a project, from the programs service's events: one of the project's
 * company (normalized as companyKey) first, else one named like the product; the most recently saved
 * wins. Its text is "<name>: <reward details>". An inactive program never counts.
 */
export async function activeProgramText(
  prisma: PrismaClient,
  project: Pick<ProjectForProgram, 'productName' | 'companyName'>,
): Promise<string | null> {
  const key = companyKey(project.companyName);
  const candidates = await prisma.program.findMany({
    where: { isActive: true, OR: [...(key ? [{ companyKey: key }] : []), { nameKey: nameKey(project.productName) }] },
    orderBy: [{ savedAt: 'desc' }, { id: 'asc' }],
    take: 20,
  });
  const program = candidates.find((c) => key && c.companyKey === key) ?? candidates[0];
  if (!program) return null;
  const text = `${program.name}: ${program.rewardDetails}`;
  return isProgramText(text) ? text : null;
}

export function referralProgramFinder(options: {
  prisma: PrismaClient;
  sources: ProgramSource[];
  recheckHours: number;
  log: FastifyBaseLogger;
}): ReferralProgramFinder {
  const { prisma, sources, log } = options;
  const recheckMs = options.recheckHours * 3600_000;
  return async (project) => {
    // The vendor's own active program first, looked up each time (never stored on the project), so a
    // program switched off stops counting at once.
    const active = await activeProgramText(prisma, project);
    if (active) return active;
    if (project.referralProgram) return project.referralProgram;
    if (!sources.length) return null;
    // Asked recently and nobody knew: don't spend another provider call on every page view.
    if (project.programCheckedAt && Date.now() - project.programCheckedAt.getTime() < recheckMs) return null;
    let failed = false;
    for (const source of sources) {
      const found = await source.find(project).catch((error: unknown) => {
        log.warn({ err: error, projectId: project.id, source: source.name }, 'referral program lookup failed');
        failed = true;
        return null;
      });
      if (found && isProgramText(found)) {
        await prisma.project.update({
          where: { id: project.id },
          data: { referralProgram: found, programCheckedAt: new Date() },
        });
        return found;
      }
    }
    // Only a real "not known" answer is remembered; a failure is asked again next time.
    if (!failed) await prisma.project.update({ where: { id: project.id }, data: { programCheckedAt: new Date() } });
    return null;
  };
}
