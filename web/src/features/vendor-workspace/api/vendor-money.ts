import { operations, type CreateWebhookRequest } from '@app/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, membershipRetry, urlFor } from '@/lib/api-client';

/** GET /api/vendors/{vendorId}/commissions: what the vendor owes (gross) and has paid. */
export const vendorCommissionsQuery = (vendorId: string) =>
  queryOptions({
    queryKey: [urlFor(operations.listVendorCommissions, { params: { vendorId } })] as const,
    queryFn: () => call(operations.listVendorCommissions, { params: { vendorId } }),
    refetchOnMount: 'always',
    ...membershipRetry,
  });
export const useVendorCommissions = (vendorId: string) => useQuery(vendorCommissionsQuery(vendorId));

/** Every webhook query of a workspace starts with this key (endpoints, then deliveries). */
export const webhooksKey = (vendorId: string) => [urlFor(operations.listWebhooks, { params: { vendorId } })] as const;

export const useWebhooks = (vendorId: string) =>
  useQuery({
    queryKey: webhooksKey(vendorId),
    queryFn: () => call(operations.listWebhooks, { params: { vendorId } }),
    ...membershipRetry,
  });

export const useWebhookDeliveries = (vendorId: string, endpointId: string) =>
  useQuery({
    queryKey: [...webhooksKey(vendorId), 'deliveries', endpointId] as const,
    queryFn: () => call(operations.listWebhookDeliveries, { params: { vendorId, endpointId } }),
  });

export function useCreateWebhook(vendorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWebhookRequest) => call(operations.createWebhook, { params: { vendorId }, body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey(vendorId) }),
  });
}

export function useDeleteWebhook(vendorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (endpointId: string) => call(operations.deleteWebhook, { params: { vendorId, endpointId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey(vendorId) }),
  });
}

export function useSendTestWebhook(vendorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (endpointId: string) => call(operations.sendTestWebhook, { params: { vendorId, endpointId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey(vendorId) }),
  });
}
