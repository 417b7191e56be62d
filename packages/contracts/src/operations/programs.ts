import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { CreateProgramRequest, Program, ProgramAnalysis, UpdateProgramRequest } from '../programs.ts';

export const ProgramIdParams = z.object({ id: z.uuid('Invalid program id') });

export const programOperations = {
  listPrograms: defineOperation({
    method: 'GET',
    path: '/api/programs/all',
    service: 'programs',
    access: 'user',
    summary: 'Every referral program (administrators see inactive ones too)',
    response: { status: 200, description: 'Programs', schema: Program.array() },
  }),
  createProgram: defineOperation({
    method: 'POST',
    path: '/api/programs',
    service: 'programs',
    access: 'admin',
    summary: 'Create a referral program (administrators only)',
    body: CreateProgramRequest,
    response: { status: 201, description: 'Created', schema: Program },
  }),
  updateProgram: defineOperation({
    method: 'PATCH',
    path: '/api/programs/{id}',
    service: 'programs',
    access: 'admin',
    summary: 'Change a referral program, e.g. its active switch (administrators only)',
    params: ProgramIdParams,
    body: UpdateProgramRequest,
    response: { status: 200, description: 'Updated', schema: Program },
    errors: ['PROGRAM_NOT_FOUND', 'NOTHING_TO_UPDATE'],
  }),
  analyzeProgramDocument: defineOperation({
    method: 'POST',
    path: '/api/analyze-referral-program',
    service: 'programs',
    access: 'admin',
    bodyKind: 'upload',
    summary:
      'Upload a program document (multipart field `file`: PDF, DOC, DOCX, TXT, PNG, JPG; at most 10 MB) and extract the program (administrators only)',
    response: { status: 200, description: 'Fields found in the document', schema: ProgramAnalysis },
    errors: [
      'FILE_REQUIRED',
      'EMPTY_FILE',
      'DOCUMENT_TOO_LARGE',
      'UNSUPPORTED_FILE_TYPE',
      'IMAGE_NEEDS_VISION',
      'DOCUMENT_UNREADABLE',
      'DOCUMENT_HAS_NO_TEXT',
      'ANALYSIS_UNAVAILABLE',
    ],
  }),
} as const;
