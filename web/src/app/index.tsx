import type { User } from '@app/contracts';
import { useState } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { startSessionQuery } from '@/features/auth/api/use-user';
import { createQueryClient } from '@/lib/query-client';
import { AppProvider } from './provider';
import { AppRoutes } from './router';
import { ScrollToTop } from './routes/scroll-to-top';

/**
 * The app: route tables, query cache, toasts. A chunk of its own, loaded by `start.tsx` (the entry) unless a
 * signed-out visitor is on `/`, who gets the landing page without it until they leave it.
 * `session` is the session read the entry started (GET /api/user).
 */
export function App({ session }: { session: Promise<User | null> }) {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    startSessionQuery(client, session);
    return client;
  });
  return (
    <AppProvider queryClient={queryClient}>
      <BrowserRouter>
        <ScrollToTop />
        <AppRoutes />
      </BrowserRouter>
    </AppProvider>
  );
}
