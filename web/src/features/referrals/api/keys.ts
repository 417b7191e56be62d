export { referralListKey } from '@/lib/query-keys';

export const referralPath = (id: string | number) => `/api/referrals/${encodeURIComponent(String(id))}`;
