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
    summary:
      'Every active referral program (administrators see inactive ones too; vendor members their own inactive ones)',
    response: { status: 200, description: 'Programs', schema: Program.array() },
  }),
  createProgram: defineOperation({
    method: 'POST',
    path: '/api/programs',
    service: 'programs',
    access: 'verified',
    summary:
      'Create a referral program (administrators; or members of a verified vendor workspace, for their own vendor)',
    body: CreateProgramRequest,
    response: { status: 201, description: 'Created', schema: Program },
    errors: [
      'ADMIN_ONLY',
      'NOT_A_MEMBER',
      'WORKSPACE_NOT_VERIFIED',
      'VENDOR_NOT_FOUND',
      'PROGRAM_WEBSITE_OFF_DOMAIN',
      'CHOOSE_WORKSPACE',
    ],
  }),
  updateProgram: defineOperation({
    method: 'PATCH',
    path: '/api/programs/{id}',
    service: 'programs',
    access: 'verified',
    summary:
      'Change a referral program, e.g. its active switch (administrators; or members of its verified vendor workspace)',
    params: ProgramIdParams,
    body: UpdateProgramRequest,
    response: { status: 200, description: 'Updated', schema: Program },
    errors: [
      'PROGRAM_NOT_FOUND',
      'NOTHING_TO_UPDATE',
      'PROGRAM_WEBSITE_OFF_DOMAIN',
      'ADMIN_ONLY',
      'NOT_A_MEMBER',
      'WORKSPACE_NOT_VERIFIED',
      'VENDOR_NOT_FOUND',
    ],
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
      'DOCUMENT_TOO_COMPLEX',
      'UPLOAD_INCOMPLETE',
    ],
  }),
} as const;
