import { operations, type AdminConfirmMilestoneRequest, type Payout, type RecordPayoutRequest } from '@app/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, isApiError, urlFor } from '@/lib/api-client';
import { invalidateMoney } from '@/lib/query-keys';

/** GET /api/admin/payouts/due: commissions in escrow, per referrer. */
export const payoutsDueQuery = queryOptions({
  queryKey: [operations.listPayoutsDue.path] as const,
  queryFn: () => call(operations.listPayoutsDue),
  refetchOnMount: 'always',
});

/** GET /api/admin/payouts: recorded batches, newest first. */
export const payoutsQuery = queryOptions({
  queryKey: [operations.listPayouts.path] as const,
  queryFn: () => call(operations.listPayouts),
  refetchOnMount: 'always',
});

export const usePayoutsDue = () => useQuery(payoutsDueQuery);
export const usePayouts = () => useQuery(payoutsQuery);

/** The CSV of one payout batch: a plain link (the browser downloads it with the session cookie). */
export const payoutExportHref = (payout: Pick<Payout, 'id'>) =>
  urlFor(operations.exportPayout, { params: { id: payout.id } });

export const recordPayout = (body: RecordPayoutRequest) => call(operations.recordPayout, { body });

export const adminConfirmMilestone = (id: number, body: AdminConfirmMilestoneRequest) =>
  call(operations.adminConfirmMilestone, { params: { id }, body });

export const adminReverseDeal = (id: number, reason: string) =>
  call(operations.adminReverseDeal, { params: { id }, body: { reason } });

/** Every money change refreshes what is due, the payouts and every referrer/vendor figure (refused ones too). */
function useMoneyMutation<V, R>(run: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSettled: () => invalidateMoney(queryClient) });
}

export const useRecordPayout = () => useMoneyMutation(recordPayout);
export const useAdminConfirmMilestone = () =>
  useMoneyMutation(({ id, body }: { id: number; body: AdminConfirmMilestoneRequest }) =>
    adminConfirmMilestone(id, body),
  );
export const useAdminReverseDeal = () =>
  useMoneyMutation(({ id, reason }: { id: number; reason: string }) => adminReverseDeal(id, reason));

/** GET /api/admin/referrals/{id}: the referral an administrator is about to act on (null: no such referral). */
export const adminReferralQuery = (id: number) =>
  queryOptions({
    queryKey: [urlFor(operations.getAdminReferral, { params: { id } })] as const,
    queryFn: async () => {
      try {
        return await call(operations.getAdminReferral, { params: { id } });
      } catch (error) {
        if (isApiError(error, 'REFERRAL_NOT_FOUND')) return null;
        throw error;
      }
    },
  });

export const useAdminReferral = (id: number | null) =>
  useQuery({ ...adminReferralQuery(id ?? 0), enabled: id !== null });
