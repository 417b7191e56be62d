import type { MatchRequest, MatchResponse } from '@app/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** POST /api/match (Smart Match): the client's need and what the referrer knows → ranked programs. */
export const findMatches = (request: MatchRequest) => apiRequest<MatchResponse>('POST', '/api/match', request);

export const useFindMatches = () => useMutation({ mutationFn: findMatches });
