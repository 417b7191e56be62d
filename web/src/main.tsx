import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Start } from './app/start';
import { getUser } from './features/auth/api/get-user';
import { preloadLandingPage } from './app/routes/lazy-pages';
import * as paths from './config/public-paths';
import './index.css';

// zod's jitless config (lib/zod-config) runs before every screen chunk but the landing page's: app/routes/lazy-pages.ts.

// The session is read at once, while the app's chunk (or on `/` the landing page's) loads: app/start.tsx.
const session = getUser();
// On `/` most visitors are signed out: fetch the landing chunk alongside GET /api/user instead of after it.
if (window.location.pathname === paths.home) preloadLandingPage();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <Start session={session} />
  </StrictMode>,
);
