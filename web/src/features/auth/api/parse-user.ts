// zod's jitless config first: the contracts below build schemas (see lib/zod-config.ts).
import '@/lib/zod-config';
import { operations } from '@app/contracts';
import { parseAnswer } from '@/lib/api-client';

/** The session's user read with the contract (a chunk of its own: see get-user.ts). */
export const parseUser = (data: unknown, status: number) => parseAnswer(operations.getUser, data, status);
