import { operations, type ConfirmMilestoneRequest } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { invalidateMoney } from '@/lib/query-keys';

/** POST /api/vendors/{vendorId}/leads/{referralId}/milestones {milestone, dealValueCents?, note?}. */
export const confirmMilestone = (vendorId: string, referralId: number, body: ConfirmMilestoneRequest) =>
  call(operations.confirmMilestone, { params: { vendorId, referralId }, body });

/** PUT …/expected-value {expectedValueCents}: the referrer's pipeline value. */
export const setExpectedValue = (vendorId: string, referralId: number, expectedValueCents: number) =>
  call(operations.setExpectedValue, { params: { vendorId, referralId }, body: { expectedValueCents } });

/** POST …/reverse {reason}: every unpaid commission of the lead is reversed. */
export const reverseDeal = (vendorId: string, referralId: number, reason: string) =>
  call(operations.reverseDeal, { params: { vendorId, referralId }, body: { reason } });

/**
 * Every money change of a lead refreshes the leads, what the vendor owes, and the referrer-side figures
 * (the same browser may hold both), whether it succeeded or was refused (someone else may have acted).
 */
function useMoneyMutation<V>(run: (variables: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSettled: () => invalidateMoney(queryClient) });
}

export const useConfirmMilestone = (vendorId: string) =>
  useMoneyMutation(({ referralId, body }: { referralId: number; body: ConfirmMilestoneRequest }) =>
    confirmMilestone(vendorId, referralId, body),
  );

export const useSetExpectedValue = (vendorId: string) =>
  useMoneyMutation(({ referralId, cents }: { referralId: number; cents: number }) =>
    setExpectedValue(vendorId, referralId, cents),
  );

export const useReverseDeal = (vendorId: string) =>
  useMoneyMutation(({ referralId, reason }: { referralId: number; reason: string }) =>
    reverseDeal(vendorId, referralId, reason),
  );
