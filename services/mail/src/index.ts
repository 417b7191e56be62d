export * from './config.ts';
export * from './service.ts';
export * from './catcher.ts';
