import {
  websiteHost,
  type CreateProgramRequest,
  type EventPayload,
  type Program,
  type UpdateProgramRequest,
} from '@app/contracts';
import { fail, type TransactionRunner } from '@app/kit';
import type { z } from 'zod';
import { assertManagesVendor, type Actor } from './access.ts';
import type { Tx } from './db.ts';
import type { Program as ProgramRow } from './generated/prisma/client.ts';
import {
  findProgram,
  findVendor,
  insertProgram,
  updateProgramRow,
  type KnownVendor,
  type ProgramsRepository,
} from './repository.ts';

type NewProgram = z.output<typeof CreateProgramRequest>;
type ProgramChanges = z.output<typeof UpdateProgramRequest>;

/** A program as the API answers it, with its vendor's name (null when unlinked). */
export const toProgram = (row: ProgramRow, vendorName: string | null): Program => ({
  id: row.id,
  name: row.name,
  description: row.description,
  website: row.website,
  rewardDetails: row.rewardDetails,
  vendorId: row.vendorId,
  vendorName,
  isActive: row.isActive,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** The event: the vendor by id; its name (or, unlinked, the old typed company) only as a hint. */
const saved = (row: ProgramRow, vendor: KnownVendor | null): EventPayload<'program.saved'> => ({
  programId: row.id,
  name: row.name,
  description: row.description,
  website: row.website,
  rewardDetails: row.rewardDetails,
  vendorId: row.vendorId,
  companyName: vendor?.name ?? row.companyHint,
  isActive: row.isActive,
});

/**
 * Routing trusts a program's website as evidence of its vendor (issue 9), so a member may only put a program
 * on their own vendor's domain (or a subdomain); administrators link anything else.
 */
function assertOnVendorDomain(website: string, vendor: KnownVendor | null): void {
  const host = websiteHost(website);
  const domain = vendor?.domain ?? '';
  if (!host || !domain || !(host === domain || host.endsWith(`.${domain}`))) fail('PROGRAM_WEBSITE_OFF_DOMAIN');
}

/** A workspace created a moment ago may not have reached this service yet: how long to wait for it. */
const VENDOR_WAIT_MS = 2000;

/**
 * Use cases of the programs service: who may change which program, and each change in its own transaction
 * announced as `program.saved` (for Smart Match and the referrals service).
 */
export function programUseCases(deps: {
  transaction: TransactionRunner<Tx>;
  repository: ProgramsRepository;
  vendorWaitMs?: number;
}) {
  const { transaction, repository } = deps;
  const vendorWaitMs = deps.vendorWaitMs ?? VENDOR_WAIT_MS;

  /** Waits a little for a vendor this service has not heard of (its `vendor.saved` may be on its way). */
  async function awaitVendor(id: string): Promise<void> {
    const deadline = Date.now() + vendorWaitMs;
    while (!(await repository.vendorExists(id)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
  }

  /**
   * The vendor a new program belongs to. Administrators name any (or none). Anyone else must be a member of
   * the verified vendor they name, or of their only workspace when they name none; without a workspace,
   * creating programs is for administrators.
   */
  async function vendorForNewProgram(input: NewProgram, actor: Actor): Promise<string | null> {
    if (input.vendorId) await awaitVendor(input.vendorId);
    if (actor.isAdmin) return input.vendorId ?? null;
    if (input.vendorId) return input.vendorId;
    const mine = await repository.vendorsOf(actor.userId);
    if (mine.length === 0) fail('ADMIN_ONLY');
    if (mine.length > 1) fail('CHOOSE_WORKSPACE');
    return mine[0]!.id;
  }

  return {
    /** Administrators: every program; members of verified vendors: also their own inactive ones. */
    async listPrograms(actor: Actor): Promise<Program[]> {
      const scope = actor.isAdmin
        ? ({ all: true } as const)
        : { vendorIds: (await repository.vendorsOf(actor.userId)).filter((v) => v.verified).map((v) => v.id) };
      const rows = await repository.listPrograms(scope);
      const names = await repository.vendorNames(rows.map((row) => row.vendorId));
      return rows.map((row) => toProgram(row, row.vendorId ? (names.get(row.vendorId) ?? null) : null));
    },

    async createProgram(input: NewProgram, actor: Actor): Promise<Program> {
      const vendorId = await vendorForNewProgram(input, actor);
      const [row, vendor] = await transaction(async (tx, emit) => {
        const vendor = vendorId ? await findVendor(tx, vendorId) : null;
        if (vendorId && !vendor) fail('VENDOR_NOT_FOUND');
        if (!actor.isAdmin) {
          assertManagesVendor(vendor, actor.userId);
          assertOnVendorDomain(input.website, vendor);
        }
        const created = await insertProgram(tx, {
          name: input.name,
          description: input.description,
          website: input.website,
          rewardDetails: input.rewardDetails,
          vendorId,
          isActive: input.isActive,
          createdBy: actor.userId,
        });
        emit('program.saved', saved(created, vendor));
        return [created, vendor] as const;
      });
      return toProgram(row, vendor?.name ?? null);
    },

    /**
     * Only the fields sent change: a rename never switches a program back on. Administrators may change
     * anything, including linking to any vendor and unlinking (`vendorId: null`). A member of the program's
     * verified vendor may change its fields and move it only to another verified vendor of theirs; an
     * unlinked program is the administrators'.
     */
    async updateProgram(id: string, changes: ProgramChanges, actor: Actor): Promise<Program> {
      const sent = Object.fromEntries(
        Object.entries(changes).filter(([, value]) => value !== undefined),
      ) as ProgramChanges;
      if (sent.vendorId) await awaitVendor(sent.vendorId);
      const [row, vendor] = await transaction(async (tx, emit) => {
        const program = (await findProgram(tx, id)) ?? fail('PROGRAM_NOT_FOUND');
        if (!actor.isAdmin) {
          if (!program.vendorId) fail('ADMIN_ONLY');
          assertManagesVendor(await findVendor(tx, program.vendorId), actor.userId);
          if (sent.vendorId === null) fail('ADMIN_ONLY');
        }
        const target = sent.vendorId === undefined ? program.vendorId : sent.vendorId;
        const vendor = target ? await findVendor(tx, target) : null;
        if (sent.vendorId && !vendor) fail('VENDOR_NOT_FOUND');
        if (!actor.isAdmin && target !== program.vendorId) assertManagesVendor(vendor, actor.userId);
        if (!actor.isAdmin) assertOnVendorDomain(sent.website ?? program.website, vendor);
        if (Object.keys(sent).length === 0) fail('NOTHING_TO_UPDATE');
        const updated = await updateProgramRow(tx, id, sent);
        emit('program.saved', saved(updated, vendor));
        return [updated, vendor] as const;
      });
      return toProgram(row, vendor?.name ?? null);
    },
  };
}

export type ProgramUseCases = ReturnType<typeof programUseCases>;
