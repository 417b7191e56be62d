/** Imported first by main.ts, so the restart (when needed) happens before the rest of the gateway loads. */
import { ensureAllocatorSettings } from './allocator.ts';

ensureAllocatorSettings();
