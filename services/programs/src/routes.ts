import type { HandlersOf } from '@app/kit';
import type { DocumentAnalysis } from './documents.ts';
import { toProgram, type ProgramUseCases } from './programs.ts';
import type { ProgramsRepository } from './repository.ts';
import { readUpload } from './upload.ts';

/** The programs service's operations (contracts: `programOperations`): input is parsed, call and reply. */
export function programRoutes(deps: {
  repository: ProgramsRepository;
  useCases: ProgramUseCases;
  analyzeDocument: DocumentAnalysis;
}): HandlersOf<'programs'> {
  const { repository, useCases, analyzeDocument } = deps;
  return {
    // Administrators see every program; everyone else only the active ones (inactive ones are drafts).
    listPrograms: async ({ identity }) => (await repository.listPrograms(identity.isAdmin)).map(toProgram),
    createProgram: ({ body, identity }) => useCases.createProgram(body, identity.userId),
    updateProgram: ({ params, body }) => useCases.updateProgram(params.id, body),
    analyzeProgramDocument: async ({ request, identity }) =>
      analyzeDocument(await readUpload(request), identity.userId, request.log),
  };
}
