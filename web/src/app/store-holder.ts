import { createContext } from 'react';
import type { AppStore } from '@/stores/store';

/**
 * The Redux store's slot. AppProvider owns the slot (so the store lives as long as the app, as before);
 * the store itself, Redux Toolkit and react-redux are created/loaded by `routes/redux-boundary.tsx` inside the
 * signed-in layout, the only part of the app that reads it. This keeps them out of the landing page's bundle.
 */
export interface StoreHolder {
  current: AppStore | null;
}

export const StoreHolderContext = createContext<StoreHolder>({ current: null });
