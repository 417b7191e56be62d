export * from './app.ts';
export * from './config.ts';
