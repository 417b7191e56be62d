import { operations } from '@app/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { call, urlFor } from '@/lib/api-client';

const list = operations.listVendors;
type DirectoryQuery = z.input<NonNullable<typeof list.query>>;

/** Every directory read starts with this key (invalidated after a workspace is created or approved). */
export const vendorDirectoryKey = [list.path] as const;

/** GET /api/admin/vendors?status=&search=: every workspace (administrators only). */
export const listVendors = (query: DirectoryQuery) => call(list, { query });

export const vendorDirectoryQueryOptions = (query: DirectoryQuery = {}) =>
  queryOptions({
    queryKey: [...vendorDirectoryKey, urlFor(list, { query })] as const,
    queryFn: () => listVendors(query),
    placeholderData: keepPreviousData,
  });

export const useVendorDirectory = (query: DirectoryQuery = {}) => useQuery(vendorDirectoryQueryOptions(query));
