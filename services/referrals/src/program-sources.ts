import { operations, ReferralProgramAnswer, type RequestBodyOf } from '@app/contracts';
import { INTERNAL_AUTH_HEADER, internalAuthToken, propagationHeaders, SpanKind, withSpan } from '@app/kit';
import type { ReferralsConfig } from './config.ts';
import type { VendorLinks } from './programs-repository.ts';

export interface ProjectForProgram {
  id: string;
  productName: string;
  companyName: string;
  website: string | null;
  referralProgram: string | null;
  programCheckedAt: Date | null;
}

/** What a source is asked about: the project with the vendor's and program's links referrals knows (issue 12). */
export type ProgramQuestion = ProjectForProgram & VendorLinks;

/**
 * Somewhere a vendor's referral program may be known, asked when neither the vendor's active program
 * nor the project knows one: null means "not known here", a throw "could not ask".
 */
export interface ProgramSource {
  name: string;
  find(project: ProgramQuestion): Promise<string | null>;
}

/** The longest program text a project keeps; a longer answer counts as a failed lookup. */
const MAX_PROGRAM_TEXT = 20_000;

const askReferralProgram = operations.askReferralProgram;

/** The AI service's internal operation (`askReferralProgram`); any failure (down, slow, malformed) throws. */
export function aiProgramSource(
  config: { AI_URL: string } & Pick<ReferralsConfig, 'AI_TIMEOUT_MS' | 'INTERNAL_SECRET'>,
): ProgramSource {
  const url = `${config.AI_URL.replace(/\/+$/, '')}${askReferralProgram.path}`;
  const token = internalAuthToken(config.INTERNAL_SECRET);
  return {
    name: 'ai',
    async find(project) {
      const question: RequestBodyOf<typeof askReferralProgram> = {
        productName: project.productName,
        companyName: project.companyName,
        website: project.website,
        vendorWebsite: project.vendorWebsite,
        programWebsite: project.programWebsite,
      };
      // The request id and trace context of the work in progress go along (x-request-id, traceparent).
      const response = await withSpan(
        'referrals',
        `${askReferralProgram.method} ai askReferralProgram`,
        { kind: SpanKind.CLIENT, attributes: { 'http.request.method': askReferralProgram.method } },
        () =>
          fetch(url, {
            method: askReferralProgram.method,
            headers: { ...propagationHeaders(), 'content-type': 'application/json', [INTERNAL_AUTH_HEADER]: token },
            body: JSON.stringify(question),
            signal: AbortSignal.timeout(config.AI_TIMEOUT_MS),
          }),
      );
      if (!response.ok) throw new Error(`AI service answered ${response.status}`);
      const text = ReferralProgramAnswer.parse(await response.json()).referralProgram?.trim();
      if (text && text.length > MAX_PROGRAM_TEXT) throw new Error('AI service answered an overlong program text');
      return text || null;
    },
  };
}
