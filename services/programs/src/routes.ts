import type { HandlersOf } from '@app/kit';
import type { DocumentAnalysis } from './documents.ts';
import type { ProgramUseCases } from './programs.ts';
import { readUpload } from './upload.ts';

/** The programs service's operations (contracts: `programOperations`): input is parsed, call and reply. */
export function programRoutes(deps: {
  useCases: ProgramUseCases;
  analyzeDocument: DocumentAnalysis;
}): HandlersOf<'programs'> {
  const { useCases, analyzeDocument } = deps;
  return {
    listPrograms: ({ identity }) => useCases.listPrograms(identity),
    createProgram: ({ body, identity }) => useCases.createProgram(body, identity),
    updateProgram: ({ params, body, identity }) => useCases.updateProgram(params.id, body, identity),
    analyzeProgramDocument: async ({ request, identity }) =>
      analyzeDocument(await readUpload(request), identity.userId, request.log),
  };
}
