/**
 * The current user's query key: the path of GET /api/user (`operations.getUser`; test/session.test.ts keeps
 * the two equal). Written out because the session is read from the entry chunk, which loads no contract.
 */
export const currentUserQueryKey = ['/api/user'] as const;
