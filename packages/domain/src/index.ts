// Pure product rules shared by the services and the web: no I/O, no framework.
export * from './bounties.ts';
export * from './commissions.ts';
export * from './display-name.ts';
export * from './icp.ts';
export * from './money.ts';
export * from './programs.ts';
export * from './stages.ts';
export * from './text.ts';
export * from './vendors.ts';
