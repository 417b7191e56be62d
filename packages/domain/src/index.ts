// Pure product rules shared by the services and the web: no I/O, no framework.
export * from './commissions.ts';
export * from './programs.ts';
export * from './stages.ts';
export * from './vendors.ts';
export * from './bounties.ts';
