import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Provider as ReduxProvider } from 'react-redux';
import { ToasterHost } from '@/components/ui/toaster-host';
import { createQueryClient } from '@/lib/query-client';
import { createAppStore, type AppStore } from '@/stores/store';

export function AppProvider({
  children,
  queryClient,
  store,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
  store?: AppStore;
}) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const [appStore] = useState(() => store ?? createAppStore());
  return (
    <QueryClientProvider client={client}>
      <ReduxProvider store={appStore}>
        {children}
        <ToasterHost />
      </ReduxProvider>
    </QueryClientProvider>
  );
}
