import type { EventPayload } from '@app/contracts';
import type { Identity } from '@app/kit';
import type { Tx } from './db.ts';

/**
 * The copy of the users (auth owns them): names and company from `user.registered`, the verified address
 * from `user.email_verified`. Data access only.
 */

/**
 * Makes sure a user acting on a workspace has a copy (a member row needs one) before their events arrived,
 * from the identity the gateway vouches for. An existing copy is only marked verified when the identity
 * proves the very same address: address changes come in order through `user.email_verified`.
 */
export async function rememberIdentity(tx: Tx, identity: Identity): Promise<void> {
  const email = identity.email.toLowerCase();
  const { userId, emailVerified } = identity;
  // Insert-if-absent: concurrent first requests of one user (in other workspaces' transactions) each make
  // sure of the copy; the first insert wins, the others wait for it and add nothing (no unique violation).
  await tx.user.createMany({ data: [{ userId, email, emailVerified }], skipDuplicates: true });
  if (emailVerified)
    await tx.user.updateMany({ where: { userId, email, emailVerified: false }, data: { emailVerified: true } });
}

/**
 * `user.registered`: names and company. The address is taken only while it is not verified yet (a
 * verification may have been handled first: it is the newer fact). Whether what members see changed.
 */
export async function saveRegistration(tx: Tx, payload: EventPayload<'user.registered'>): Promise<boolean> {
  const { userId, firstName, lastName, companyName } = payload;
  const email = payload.email.toLowerCase();
  const copy = await tx.user.findUnique({ where: { userId } });
  if (!copy) {
    await tx.user.create({ data: { userId, email, firstName, lastName, companyName } });
    return false;
  }
  const nextEmail = copy.emailVerified ? copy.email : email;
  await tx.user.update({ where: { userId }, data: { email: nextEmail, firstName, lastName, companyName } });
  return copy.firstName !== firstName || copy.lastName !== lastName || copy.email !== nextEmail;
}

/**
 * `user.email_verified`: the account is verified at this address (a first verification or an email change),
 * as of `at` (the event's occurredAt). An event older than the one the copy has (a failed delivery retried
 * after a later change) changes nothing: an address the user left would otherwise be theirs again, and
 * prove a workspace on its domain. Whether the address members see changed.
 */
export async function saveVerifiedEmail(
  tx: Tx,
  payload: EventPayload<'user.email_verified'>,
  at: Date,
): Promise<boolean> {
  const { userId } = payload;
  const email = payload.email.toLowerCase();
  const copy = await tx.user.findUnique({ where: { userId } });
  if (!copy) {
    await tx.user.create({ data: { userId, email, emailVerified: true, emailAt: at } });
    return false;
  }
  if (copy.emailAt && copy.emailAt > at) return false;
  await tx.user.update({ where: { userId }, data: { email, emailVerified: true, emailAt: at } });
  return copy.email !== email;
}
