import { useContext, useState, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { createAppStore } from '@/stores/store';
import { StoreHolderContext } from '../store-holder';

/** Provides the app's one Redux store (created on first use, kept in AppProvider's slot). */
export function ReduxBoundary({ children }: { children: ReactNode }) {
  const holder = useContext(StoreHolderContext);
  const [store] = useState(() => (holder.current ??= createAppStore()));
  return <Provider store={store}>{children}</Provider>;
}
