import { operations } from '@app/contracts';
import { urlFor } from './api-client';

/**
 * Query keys more than one feature touches. Keys start with the URL read (spec 7). The dashboard's list
 * queries are keyed ['/api/referrals', url]: invalidating this prefix marks every page and filter
 * combination out of date (e.g. after a new referral).
 */
export const referralListKey = [operations.listReferrals.path] as const;

/** One referral (the referral screens read it; the dashboard refreshes it after a status change). */
export const referralKey = (id: string | number) => [urlFor(operations.getReferral, { params: { id } })] as const;
