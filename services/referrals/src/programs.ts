import { REFERRAL_MESSAGES } from '@app/contracts';
import { bountyList, isReferralProgramText } from '@app/domain';
import { fail } from '@app/kit';
import type { FastifyBaseLogger } from 'fastify';
import type { ProgramSource, ProjectForProgram } from './program-sources.ts';
import type { ProgramsRepository } from './programs-repository.ts';

/** A referral's lead: the workspace it was routed to, by id and (current) name. */
type RoutedVendor = { vendorId: string; vendorName: string };

/**
 * The referral-program check of a product (spec 4): the vendor's active program (programs service), else the
 * bounties of the workspace the caller's referral was routed to, else what the project already knows, else the
 * sources (the AI service), else 'NO: …'; when a source could not be asked (down, slow past AI_TIMEOUT_MS, model
 * failing), 503 PROGRAM_CHECK_UNAVAILABLE instead of 'NO'.
 * Text the web reads as "no program" (isReferralProgramText) is not a program, whoever says it.
 */
export function referralProgramUseCases(deps: {
  repository: ProgramsRepository;
  sources: ProgramSource[];
  recheckHours: number;
  log: FastifyBaseLogger;
}) {
  const { repository, sources, log } = deps;
  const recheckMs = deps.recheckHours * 3600_000;

  /** The vendor's own active program, looked up each time (never kept on the project), so one switched off stops counting at once. */
  async function activeProgramText(project: ProjectForProgram, routedVendorId: string | null): Promise<string | null> {
    const program = await repository.activeProgram(project, routedVendorId);
    if (!program) return null;
    const text = `${program.name}: ${program.rewardDetails}`;
    return isReferralProgramText(text) ? text : null;
  }

  /**
   * The bounties of the workspace the referral was routed to, in words: a vendor that pays for leads has a
   * referral program on the platform, program page or not (the referrer was told it had none while the lead
   * sat in its inbox with an expected commission). Looked up each time, as the active program.
   */
  async function routedBountiesText(routed: RoutedVendor | null): Promise<string | null> {
    if (!routed) return null;
    const bounties = await repository.vendorBounties(routed.vendorId);
    const list = bounties ? bountyList(bounties) : null;
    return list ? `${routed.vendorName} referral bounties: ${list}` : null;
  }

  /** The program's text, or null when nobody knows one. */
  async function findProgram(project: ProjectForProgram, routed: RoutedVendor | null): Promise<string | null> {
    const active = (await activeProgramText(project, routed?.vendorId ?? null)) ?? (await routedBountiesText(routed));
    if (active) return active;
    if (project.referralProgram) return project.referralProgram;
    if (!sources.length) return null;
    // Asked recently and nobody knew: don't spend another provider call on every page view.
    if (project.programCheckedAt && Date.now() - project.programCheckedAt.getTime() < recheckMs) return null;
    // The vendor's and its program's links, so the source looks at the vendor itself (issue 12). Only those the
    // product's names vouch for: the answer is kept on the project, which every referrer of the product shares.
    const question = { ...project, ...(await repository.vendorLinks(project)) };
    let failed = false;
    for (const source of sources) {
      const found = await source.find(question).catch((error: unknown) => {
        log.warn({ err: error, projectId: project.id, source: source.name }, 'referral program lookup failed');
        failed = true;
        return null;
      });
      if (found && isReferralProgramText(found)) {
        await repository.rememberProgram(project.id, found);
        return found;
      }
    }
    // A failure is not a "no" (issue 11): the answer says so, the screen offers a retry, and nothing is
    // remembered. Only a real "not known" answer is.
    if (failed) fail('PROGRAM_CHECK_UNAVAILABLE');
    await repository.rememberProgram(project.id, null);
    return null;
  }

  return {
    /**
     * The product's program text. `routed`: the workspace the caller's own referral of the product was routed
     * to (its lead), whose active program then counts whatever its name, and else its bounties.
     */
    async referralProgramOf(
      projectId: string,
      routed: RoutedVendor | null = null,
    ): Promise<{ referralProgram: string }> {
      const project = (await repository.findProject(projectId)) ?? fail('PRODUCT_NOT_FOUND');
      return { referralProgram: (await findProgram(project, routed)) ?? REFERRAL_MESSAGES.noProgram };
    },
  };
}

export type ReferralProgramUseCases = ReturnType<typeof referralProgramUseCases>;
