/**
 * The C allocator's setting the gateway runs with (glibc reads it from the environment at start).
 *
 * Each answer a service sends is read into a buffer malloc'd by Node (64 KB, cut down to what came) that
 * lives until V8's next scavenge, which then frees a few thousand of them at once: tens of MB at the top
 * of the heap. Past glibc's default trim threshold (128 KB) that memory goes back to the kernel, and the
 * next answers fault fresh pages in again: 3.9 page faults per 20 KB answer, ~5 us of system time per
 * request (bench/README.md, "Fifth pass"). Keeping up to 64 MB of freed heap mapped removes them.
 */
export const ALLOCATOR_ENV = { MALLOC_TRIM_THRESHOLD_: String(64 * 1024 * 1024) } as const;

/**
 * Restarts this process in place (execve: same pid, same open files) with `ALLOCATOR_ENV` when it is not
 * set yet, on Linux. Not when the process has an IPC channel (forked by a parent that talks to it, or a
 * cluster worker, which inherits the primary's environment anyway).
 */
export function ensureAllocatorSettings(): void {
  if (process.platform !== 'linux' || !process.execve || process.channel) return;
  const missing = Object.entries(ALLOCATOR_ENV).filter(([name]) => process.env[name] === undefined);
  if (missing.length === 0) return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    ...Object.fromEntries(missing),
  });
}
