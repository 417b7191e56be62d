import { operations, type MyVendors, type Vendor } from '@app/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { call } from './api-client';

/**
 * The signed-in user's vendor workspaces (issue 9), read by every screen that works on one: the workspace
 * screen, the lead inbox, lead criteria and bounties. Which one a screen works on is in its URL
 * (`?vendorId=`), so a link can name it and a reload keeps it.
 */

export const VENDOR_PARAM = 'vendorId';

export const myVendorsKey = [operations.listMyVendors.path] as const;

/** GET /api/vendors/mine: the user's workspaces and the invitations waiting for their address. */
export const getMyVendors = () => call(operations.listMyVendors);

export const myVendorsQueryOptions = () => queryOptions({ queryKey: myVendorsKey, queryFn: getMyVendors });

/**
 * Read again whenever a screen showing it opens: a workspace is verified elsewhere (a member confirms their
 * email, an administrator approves it).
 */
export const useMyVendors = ({ enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({ ...myVendorsQueryOptions(), enabled, refetchOnMount: 'always' });

/** The workspace a screen works on: the one named in the URL if it is the user's, else the first verified, else the first. */
export function chooseVendor(vendors: readonly Vendor[], wanted: string | null): Vendor | null {
  return vendors.find((v) => v.id === wanted) ?? vendors.find((v) => v.verified) ?? vendors[0] ?? null;
}

/** The `?vendorId=` of the current URL, and a setter that keeps the rest of the URL (null removes it). */
export function useVendorParam(): [string | null, (id: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const set = (id: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set(VENDOR_PARAM, id);
        else next.delete(VENDOR_PARAM);
        return next;
      },
      { replace: true },
    );
  return [params.get(VENDOR_PARAM), set];
}

/** A screen's path for one workspace. */
export const withVendor = (path: string, vendorId: string | null | undefined) =>
  vendorId ? `${path}?${VENDOR_PARAM}=${encodeURIComponent(vendorId)}` : path;

/** Puts a workspace the server answered with into the cached list (or drops it when the user left it). */
export function storeVendor(queryClient: QueryClient, vendor: Vendor, { left = false }: { left?: boolean } = {}) {
  queryClient.setQueryData<MyVendors>(myVendorsKey, (current) => {
    if (!current) return current;
    const others = current.vendors.filter((v) => v.id !== vendor.id);
    const known = others.length !== current.vendors.length;
    const vendors = left
      ? others
      : known
        ? current.vendors.map((v) => (v.id === vendor.id ? vendor : v))
        : [...current.vendors, vendor];
    return { ...current, vendors };
  });
}
