import { operations, type MatchRequest } from '@app/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** POST /api/match (Smart Match): the client's need and what the referrer knows → ranked programs. */
export const findMatches = (body: MatchRequest) => call(operations.smartMatch, { body });

export const useFindMatches = () => useMutation({ mutationFn: findMatches });
