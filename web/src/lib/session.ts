/** The current-user query key, shared by every feature that changes or reads the session. */
export const currentUserQueryKey = ['/api/user'] as const;
