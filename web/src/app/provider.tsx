import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ToasterHost } from '@/components/ui/toaster-host';
import { createQueryClient } from '@/lib/query-client';
import type { AppStore } from '@/stores/store';
import { StoreHolderContext, type StoreHolder } from './store-holder';

export function AppProvider({
  children,
  queryClient,
  store,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
  /** The Redux store to use (tests); by default one is created when the signed-in layout first needs it. */
  store?: AppStore;
}) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const [holder] = useState<StoreHolder>(() => ({ current: store ?? null }));
  return (
    <QueryClientProvider client={client}>
      <StoreHolderContext.Provider value={holder}>
        {children}
        <ToasterHost />
      </StoreHolderContext.Provider>
    </QueryClientProvider>
  );
}
