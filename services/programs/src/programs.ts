import type { CreateProgramRequest, EventPayload, Program, UpdateProgramRequest } from '@app/contracts';
import { fail, type TransactionRunner } from '@app/kit';
import type { z } from 'zod';
import type { Tx } from './db.ts';
import type { Program as ProgramRow } from './generated/prisma/client.ts';
import { insertProgram, updateProgramRow } from './repository.ts';

type NewProgram = z.output<typeof CreateProgramRequest>;
type ProgramChanges = z.output<typeof UpdateProgramRequest>;

/** A program as the API answers it. */
export const toProgram = (row: ProgramRow): Program => ({
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

const saved = (row: ProgramRow): EventPayload<'program.saved'> => ({
  programId: row.id,
  name: row.name,
  description: row.description,
  website: row.website,
  rewardDetails: row.rewardDetails,
  companyName: row.companyName,
  isActive: row.isActive,
});

/** An empty or blank companyName means "no vendor company". */
const company = (value: string | undefined) => (value === undefined ? undefined : value.trim() || null);

/**
 * Use cases of the programs service: each owns its transaction and announces the program as saved
 * (`program.saved`, for Smart Match and the referrals service).
 */
export function programUseCases(transaction: TransactionRunner<Tx>) {
  return {
    async createProgram(input: NewProgram, createdBy: string): Promise<Program> {
      const row = await transaction(async (tx, emit) => {
        const created = await insertProgram(tx, {
          name: input.name,
          description: input.description,
          website: input.website,
          rewardDetails: input.rewardDetails,
          companyName: company(input.companyName) ?? null,
          isActive: input.isActive,
          createdBy,
        });
        emit('program.saved', saved(created));
        return created;
      });
      return toProgram(row);
    },

    /** Only the fields sent change: a rename never switches a program back on. */
    async updateProgram(id: string, changes: ProgramChanges): Promise<Program> {
      const sent = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      if (Object.keys(sent).length === 0) fail('NOTHING_TO_UPDATE');
      const { companyName, ...fields } = sent as ProgramChanges;
      const data = { ...fields, ...(companyName !== undefined ? { companyName: company(companyName) } : {}) };
      const row = await transaction(async (tx, emit) => {
        const updated = (await updateProgramRow(tx, id, data)) ?? fail('PROGRAM_NOT_FOUND');
        emit('program.saved', saved(updated));
        return updated;
      });
      return toProgram(row);
    },
  };
}

export type ProgramUseCases = ReturnType<typeof programUseCases>;
