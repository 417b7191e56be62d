import { useSyncExternalStore, type ReactElement, type ReactNode } from 'react';

/** Spec 9: one toast visible at a time; a dismissed toast is removed from memory after 1,000,000 ms. */
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 1_000_000;

export type ToastVariant = 'default' | 'destructive';

export interface ToastOptions {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  /** Milliseconds; the provider's default (5000) when left out. */
  duration?: number;
  /** An optional action, e.g. <ToastAction altText="Undo">Undo</ToastAction>. */
  action?: ReactElement;
}

export interface ToastItem extends ToastOptions {
  id: string;
  open: boolean;
}

let toasts: ToastItem[] = [];
/** Whether any toast was ever raised: the toast UI is only loaded from then on. */
let toasted = false;
let counter = 0;
const listeners = new Set<() => void>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();

function emit(next: ToastItem[]) {
  toasts = next;
  if (next.length > 0) toasted = true;
  for (const listener of listeners) listener();
}

function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return;
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id);
      emit(toasts.filter((t) => t.id !== id));
    }, TOAST_REMOVE_DELAY),
  );
}

export function dismissToast(id?: string) {
  for (const t of toasts) if (id === undefined || t.id === id) scheduleRemoval(t.id);
  emit(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
}

export function toast(options: ToastOptions) {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  emit([{ ...options, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

/** Forgets every toast at once (tests start from a clean slate). */
export function clearToasts() {
  for (const timer of removeTimers.values()) clearTimeout(timer);
  removeTimers.clear();
  emit([]);
  toasted = false;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getSnapshot = () => toasts;

export function useToast() {
  const current = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { toasts: current, toast, dismiss: dismissToast };
}

const getToasted = () => toasted;

export function useHasToasted(): boolean {
  return useSyncExternalStore(subscribe, getToasted, getToasted);
}
