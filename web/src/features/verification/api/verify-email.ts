import { operations, VERIFY_LINK_MISSING } from '@app/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call, isApiError, urlFor } from '@/lib/api-client';
import { DEFAULT_MUTATION_ERROR } from '@/lib/http';

export const VERIFY_FAILED = 'Verification failed. Please try again.';
export const VERIFY_UNEXPECTED = 'An unexpected error occurred. Please try again.';
export { VERIFY_LINK_MISSING };

export interface VerifyEmailParams {
  token: string;
  userId: string;
}

/** GET /api/verify-email?token=&userId= (spec 7). */
export const verifyEmail = (query: VerifyEmailParams) => call(operations.verifyEmail, { query });

/**
 * What the failed screen says (spec 8): the server's text; the generic failure when it gave none; the
 * unexpected error when nothing (or nothing readable) came back.
 */
export function verifyFailureText(error: unknown): string {
  if (!isApiError(error) || error.code === 'NETWORK_ERROR' || error.code === 'UNEXPECTED_RESPONSE') {
    return VERIFY_UNEXPECTED;
  }
  const text = error.message.trim();
  return text === '' || text === DEFAULT_MUTATION_ERROR ? VERIFY_FAILED : text;
}

/**
 * The token is single-use. Being a query, the request is made once per link even when StrictMode mounts the
 * screen twice (the second mount joins the request in flight), and the answer is kept: never refetched.
 */
export function verifyEmailQueryOptions(params: VerifyEmailParams) {
  return queryOptions({
    queryKey: [urlFor(operations.verifyEmail, { query: params })],
    queryFn: () => verifyEmail(params),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    refetchOnMount: false,
    retryOnMount: false,
    refetchOnReconnect: false,
    refetchOnWindowFocus: false,
  });
}

export function useVerifyEmail(params: VerifyEmailParams | null) {
  return useQuery({
    ...verifyEmailQueryOptions(params ?? { token: '', userId: '' }),
    enabled: params !== null,
  });
}
