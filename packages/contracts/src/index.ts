export * from './common.ts';
export * from './auth.ts';
export * from './events.ts';
export * from './api.ts';
export * from './search.ts';
export * from './referrals.ts';
export * from './enrichment.ts';
