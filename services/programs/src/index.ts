export * from './config.ts';
export * from './service.ts';
export { startEmbeddedS3, s3Storage, type DocumentStorage, type EmbeddedS3 } from './storage.ts';
