import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Statement names by text: a text is hashed once per process, not on every call. */
const names = new Map<string, string>();

/**
 * A named prepared statement: each pooled connection plans a query text once instead of on every call
 * (planning these joins costs about as much as running them, or more: 1.4 ms to plan the commissions of a
 * page against 0.1 ms to run it). Only for texts made by the code (values always as parameters), so the
 * per-connection cache and `names` stay small.
 */
export function prepared(text: string, values: unknown[]): pg.QueryConfig {
  let name = names.get(text);
  if (!name) {
    name = `referrals-${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
    names.set(text, name);
  }
  return { name, text, values };
}
