import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * A named prepared statement: each pooled connection plans a query text once instead of on every call
 * (planning these joins costs about as much as running them, or more: 1.4 ms to plan the commissions of a
 * page against 0.1 ms to run it). Only for texts made by the code (values always as parameters), so the
 * per-connection cache stays small. `reusePlan = false` sends the text unnamed, planned for its values.
 */
export const prepared = (text: string, values: unknown[], reusePlan = true): pg.QueryConfig =>
  reusePlan
    ? { name: `referrals-${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`, text, values }
    : { text, values };
