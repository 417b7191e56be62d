import type { OperationSpec, ServiceName } from '../operation.ts';
import { aiOperations } from './ai.ts';
import { authOperations } from './auth.ts';
import { mailOperations } from './mail.ts';
import { profileOperations, vendorOperations, webhookOperations } from './profiles.ts';
import { programOperations } from './programs.ts';
import { leadOperations, moneyAdminOperations, referralOperations } from './referrals.ts';

export * from './ai.ts';
export * from './auth.ts';
export * from './mail.ts';
export * from './profiles.ts';
export * from './programs.ts';
export * from './referrals.ts';

/**
 * Every operation of the product, by id. The gateway's routes, limits and OpenAPI document, each
 * service's route registration and the web's calls all come from here.
 */
export const operations = {
  ...authOperations,
  ...referralOperations,
  ...leadOperations,
  ...moneyAdminOperations,
  ...profileOperations,
  ...vendorOperations,
  ...webhookOperations,
  ...programOperations,
  ...aiOperations,
  ...mailOperations,
} as const;

export type Operations = typeof operations;
export type OperationId = keyof Operations;
/** The ids of the operations a service owns. */
export type OperationIdOf<S extends ServiceName> = {
  [K in OperationId]: Operations[K]['service'] extends S ? K : never;
}[OperationId];

export const operationList = Object.entries(operations).map(([id, op]) => ({ id: id as OperationId, ...op })) as Array<
  OperationSpec & { id: OperationId }
>;
