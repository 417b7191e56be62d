import { ERRORS, type ErrorCode, type User } from '@app/contracts';
import { render, screen } from '@testing-library/react';
import { StrictMode, type ReactElement, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation, type InitialEntry } from 'react-router-dom';
import { vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { AppRoutes } from '@/app/router';
import { RouterNavigation } from '@/app/routes/router-navigation';
import { createQueryClient } from '@/lib/query-client';
import { currentUserQueryKey } from '@/lib/session';
import { createAppStore } from '@/stores/store';

export interface RecordedRequest {
  method: string;
  url: string;
  path: string;
  body: unknown;
  headers: Headers;
  credentials: RequestCredentials | undefined;
}

export type Handler = (req: RecordedRequest) => Response | Promise<Response> | undefined;

export function json(status: number, body: unknown, statusText?: string): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** An error answer as every service gives it: `{ message, code }` (the code's own message unless given). */
export function problem(code: ErrorCode, message?: string, extra: Record<string, unknown> = {}): Response {
  const { status, message: standard } = ERRORS[code];
  return json(status, { message: message ?? standard, code, ...extra });
}

export const makeUser = (overrides: Partial<User> = {}): User => ({
  id: 'u1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  companyName: 'Engines Ltd',
  isAdmin: false,
  emailVerified: true,
  createdAt: '2026-01-15T10:00:00.000Z',
  intent: 'both',
  ...overrides,
});

/**
 * Stubs the browser's fetch with an in-test server. `session.user` is what GET /api/user answers (401 when
 * null); `handler` answers the rest (an unanswered request fails the test with a 599).
 */
export function installServer(options: { user?: User | null; handler?: Handler } = {}) {
  const session = { user: options.user ?? null };
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const text = typeof init.body === 'string' ? init.body : undefined;
    const req: RecordedRequest = {
      method: (init.method ?? 'GET').toUpperCase(),
      url,
      path: new URL(url, 'http://localhost').pathname,
      body: text === undefined ? undefined : (JSON.parse(text) as unknown),
      headers: new Headers(init.headers),
      credentials: init.credentials,
    };
    requests.push(req);
    const answer = await options.handler?.(req);
    if (answer) return answer;
    if (req.method === 'GET' && req.path === '/api/user') {
      return session.user ? json(200, session.user) : problem('UNAUTHENTICATED');
    }
    return json(599, { message: `No test handler for ${req.method} ${url}` }, 'Unhandled');
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    session,
    requests,
    fetchMock,
    callsTo: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path),
  };
}

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{`${location.pathname}${location.search}`}</div>;
}

/** Renders the whole app at `path` (a string, or {pathname, state} to carry navigation state). */
export function renderApp(path: InitialEntry, { strict = false }: { strict?: boolean } = {}) {
  const queryClient = createQueryClient();
  const store = createAppStore();
  const tree: ReactNode = (
    <AppProvider queryClient={queryClient} store={store}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </AppProvider>
  );
  const result = render(strict ? <StrictMode>{tree}</StrictMode> : tree);
  return { ...result, queryClient, store };
}

/** The router's current path and query, as the app sees it. */
export const currentPath = () => screen.getByTestId('location').textContent;

export interface RouteOptions {
  /** The route pattern the page is mounted at (`paths` / `routePatterns`); `at` by default. */
  path?: string;
  /** Where the router starts: a path, or {pathname, state} to carry navigation state. */
  at: InitialEntry;
  /** Other screens the page leads to, for tests that follow it there. */
  routes?: Record<string, ReactElement>;
  /** The signed-in user, put in the session cache as the app would have read it. */
  user?: User | null;
  strict?: boolean;
}

/**
 * Renders one screen with the app's providers (query client, toasts, Redux store) in a memory router at its
 * route, without the route tables, the session read and the lazily loaded chunks of the whole app.
 */
export function renderRoute(page: ReactElement, { path, at, routes = {}, user, strict = false }: RouteOptions) {
  const queryClient = createQueryClient();
  if (user !== undefined) queryClient.setQueryData(currentUserQueryKey, user);
  const store = createAppStore();
  const pattern = path ?? (typeof at === 'string' ? at : (at.pathname ?? '/')).split('?')[0]!;
  const tree: ReactNode = (
    <AppProvider queryClient={queryClient} store={store}>
      <Provider store={store}>
        <MemoryRouter initialEntries={[at]}>
          <RouterNavigation>
            <Routes>
              <Route path={pattern} element={page} />
              {Object.entries(routes).map(([routePath, element]) => (
                <Route key={routePath} path={routePath} element={element} />
              ))}
              <Route path="*" element={<p>Another screen</p>} />
            </Routes>
          </RouterNavigation>
          <LocationProbe />
        </MemoryRouter>
      </Provider>
    </AppProvider>
  );
  const result = render(strict ? <StrictMode>{tree}</StrictMode> : tree);
  return { ...result, queryClient, store };
}
