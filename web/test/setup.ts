import '@/lib/zod-config';
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { clearToasts } from '@/hooks/use-toast';

// Screens are lazily loaded chunks: the first visit to one in a file transforms it, which can take a second.
configure({ asyncUtilTimeout: 3000 });

// jsdom lacks the layout APIs Radix menus touch.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};
Element.prototype.scrollIntoView ??= () => {};

afterEach(() => {
  cleanup();
  clearToasts();
  // Test files share their worker (vitest.config.ts: isolate false): nothing carries over to the next one.
  vi.useRealTimers();
});
