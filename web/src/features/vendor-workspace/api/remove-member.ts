import { operations } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { storeVendor } from '@/lib/my-vendors';

/** DELETE /api/vendors/{vendorId}/members/{userId}: an owner removes a member, or a member leaves. */
export const removeMember = (vendorId: string, userId: string) =>
  call(operations.removeMember, { params: { vendorId, userId } });

/** `leaving`: the user removes themself, so the workspace leaves their list. */
export function useRemoveMember(vendorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId }: { userId: string; leaving: boolean }) => removeMember(vendorId, userId),
    onSuccess: (vendor, { leaving }) => storeVendor(queryClient, vendor, { left: leaving }),
  });
}
