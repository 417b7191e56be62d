import { VERIFY_LINK_MISSING, VerifyEmailResponse } from '@app/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

export const VERIFY_FAILED = 'Verification failed. Please try again.';
export const VERIFY_UNEXPECTED = 'An unexpected error occurred. Please try again.';
export { VERIFY_LINK_MISSING };

export interface VerifyEmailParams {
  token: string;
  userId: string;
}

export function verifyEmailUrl({ token, userId }: VerifyEmailParams): string {
  return `/api/verify-email?${new URLSearchParams({ token, userId }).toString()}`;
}

/**
 * GET /api/verify-email. A failure shows the server's text (its JSON message, else its plain-text body);
 * anything else (no answer, an answer that is not the expected JSON) is an unexpected error.
 */
export async function verifyEmail(params: VerifyEmailParams): Promise<VerifyEmailResponse> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(verifyEmailUrl(params), { credentials: 'include', headers: { Accept: 'application/json' } });
    text = await res.text();
  } catch {
    throw new Error(VERIFY_UNEXPECTED);
  }
  if (!res.ok) throw new Error(serverText(text) || VERIFY_FAILED);
  try {
    return VerifyEmailResponse.parse(JSON.parse(text));
  } catch {
    throw new Error(VERIFY_UNEXPECTED);
  }
}

function serverText(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    return typeof body.message === 'string' ? body.message.trim() : '';
  } catch {
    // A plain-text body is shown as it is, an HTML error page is not.
    return /^\s*</.test(text) ? '' : text.trim().slice(0, 500);
  }
}

/**
 * The token is single-use. Being a query, the request is made once per link even when StrictMode mounts the
 * screen twice (the second mount joins the request in flight), and the answer is kept: never refetched.
 */
export function verifyEmailQueryOptions(params: VerifyEmailParams) {
  return queryOptions({
    queryKey: [verifyEmailUrl(params)],
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
