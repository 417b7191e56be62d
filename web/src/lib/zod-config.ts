import { config } from 'zod/v4/core';

// The gateway's CSP has no 'unsafe-eval': zod must not compile validators with `new Function` (nor even probe
// for it, which a strict CSP reports as a violation). Must run before any schema is created.
config({ jitless: true });
