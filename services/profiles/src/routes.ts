import { fail, type HandlersOf } from '@app/kit';
import { savedBounties, savedLeadCriteria, type profileUseCases } from './profiles.ts';
import type { profilesRepository } from './repository.ts';

export const DEMO_RECEIVED = 'Demo request received';

/** The profiles service's operations (contracts: `profileOperations`): parse is done, call and reply. */
export function profileRoutes(deps: {
  repository: ReturnType<typeof profilesRepository>;
  useCases: ReturnType<typeof profileUseCases>;
}): HandlersOf<'profiles'> {
  const { repository, useCases } = deps;
  return {
    getLeadCriteria: async ({ identity }) =>
      savedLeadCriteria((await repository.findLeadCriteria(identity.userId)) ?? fail('LEAD_CRITERIA_NOT_FOUND')),
    saveLeadCriteria: ({ identity, body }) => useCases.saveLeadCriteria(identity.userId, body),
    getBounties: async ({ identity }) =>
      savedBounties((await repository.findBounties(identity.userId)) ?? fail('BOUNTIES_NOT_FOUND')),
    saveBounties: ({ identity, body }) => useCases.saveBounties(identity.userId, body),
    requestDemo: async ({ body }) => {
      await useCases.requestDemo(body);
      return { message: DEMO_RECEIVED };
    },
  };
}
