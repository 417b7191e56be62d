import { fail, sealer, type Emit, type TransactionRunner } from '@app/kit';
import type { AuthConfig } from './config.ts';
import type { Tx } from './db.ts';
import {
  deletePendingEmailChanges,
  deletePendingLinks,
  findLinkWithUser,
  findUserByEmail,
  isUniqueViolation,
  latestVerificationAt,
  lockUser,
  lockUserWithPassword,
  markEmailVerified,
  moveEmail,
  replacePendingLink,
  useLink,
} from './repository.ts';
import type { SessionUseCases } from './sessions.ts';
import { hashToken, newToken } from './tokens.ts';

interface Recipient {
  id: string;
  email: string;
  firstName: string;
}

/**
 * What opening a link did: the account's address verified (and a session started: the link was delivered
 * to that address and works once, so it signs the user in; `sessionToken` is the cookie), or the account
 * moved to a new address.
 */
export type LinkOutcome = { outcome: 'verified'; sessionToken: string } | { outcome: 'email-changed' };

/**
 * The emailed links: verifying the account's address, and confirming a new one. Only the token's hash is
 * stored; the token itself travels sealed in the event, for the mail service to put in the link.
 */
export function verificationUseCases(deps: {
  transaction: TransactionRunner<Tx>;
  config: AuthConfig;
  sessions: SessionUseCases;
}) {
  const { transaction, config, sessions } = deps;
  const tokenSealer = sealer(config.INTERNAL_SECRET, 'email-verification');

  /** A new link: stored as its hash, replacing the pending ones of its kind; answers what the email carries. */
  async function issueLink(tx: Tx, userId: string, newEmail: string | null) {
    const token = newToken();
    const expiresAt = new Date(Date.now() + config.VERIFICATION_TTL_HOURS * 3600_000);
    await replacePendingLink(tx, { userId, tokenHash: hashToken(token), expiresAt, newEmail });
    return { sealedToken: tokenSealer.seal(token), expiresAt: expiresAt.toISOString() };
  }

  /**
   * Replaces the user's pending verification links with a new one and queues the email, in the caller's
   * transaction. A pending email-change link is another link to another address and stays valid.
   */
  async function requestVerification(tx: Tx, emit: Emit, user: Recipient): Promise<void> {
    const link = await issueLink(tx, user.id, null);
    emit('email_verification.requested', { userId: user.id, email: user.email, firstName: user.firstName, ...link });
  }

  return {
    requestVerification,

    /**
     * Sends a link to the new address; the email changes only when it is opened. A new request replaces an
     * earlier pending change; ordinary verification links are left alone. The current address is told. An
     * address another account has (`taken`) gets no link, and the rest is the same, so that the requester
     * cannot tell the two apart; the caller tells that address's owner, in a transaction of its own (two users
     * asking for each other's address at once would otherwise lock their rows in opposite orders).
     */
    requestEmailChange: (user: Recipient & { passwordHash: string }, newEmail: string, taken: boolean) =>
      transaction(async (tx, emit) => {
        // The password was checked before this transaction: a password change committed since cancels the
        // pending changes and must cancel this one too (its link would outlive it). Under the user's lock, the
        // password is still the one checked, or the change is refused as a wrong password.
        if (!(await lockUserWithPassword(tx, user.id, user.passwordHash)))
          fail('WRONG_PASSWORD', undefined, { field: 'password' });
        if (taken) await deletePendingEmailChanges(tx, user.id);
        else {
          const link = await issueLink(tx, user.id, newEmail);
          emit('email_change.requested', { userId: user.id, newEmail, firstName: user.firstName, ...link });
        }
        emit('email_change.notice_requested', {
          userId: user.id,
          email: user.email,
          newEmail,
          firstName: user.firstName,
        });
      }),

    /** Sends a new link to an unverified account, unless one went out within the cooldown; false if none was sent. */
    resend: (email: string): Promise<boolean> =>
      transaction(async (tx, emit) => {
        const user = await findUserByEmail(tx, email);
        if (!user || user.emailVerifiedAt) return false;
        // One resend of a user at a time: the next one reads the link this one issued, and is in its cooldown
        // (two at once each sent an email, and left two valid links).
        await lockUser(tx, user.id);
        const latest = await latestVerificationAt(tx, user.id);
        if (latest && Date.now() - latest.getTime() < config.RESEND_COOLDOWN_SECONDS * 1000) return false;
        await requestVerification(tx, emit, user);
        return true;
      }),

    /**
     * Opens a link, once: verifies the address and signs the user in (ending the browser's earlier
     * session), or moves the account to the new address it was sent to.
     */
    async open(input: { token: string; userId: string }, browserToken: string | undefined): Promise<LinkOutcome> {
      try {
        return await transaction(async (tx, emit) => {
          const found = await findLinkWithUser(tx, hashToken(input.token));
          if (!found || found.userId !== input.userId) fail('VERIFICATION_LINK_INVALID');
          // The user's links one at a time, read again under the lock: an email change opened meanwhile has
          // withdrawn the links sent to the old address, and its user row is the one this link would change.
          await lockUser(tx, found.userId);
          const link = await findLinkWithUser(tx, hashToken(input.token));
          if (!link || link.userId !== input.userId || link.usedAt || link.expiresAt.getTime() <= Date.now())
            fail('VERIFICATION_LINK_INVALID');
          if (!(await useLink(tx, link.id))) fail('VERIFICATION_LINK_INVALID');
          const { user } = link;
          if (link.newEmail !== null) {
            // Another account may have taken the address since the request: refused, and the rollback
            // leaves the link usable.
            const holder = await findUserByEmail(tx, link.newEmail);
            if (holder && holder.id !== user.id) fail('EMAIL_CHANGE_TAKEN');
            // Opening the link proved the new address: the account is verified at it.
            await moveEmail(tx, user.id, link.newEmail, user.emailVerifiedAt ?? new Date());
            // Links sent to the old address (verification or an earlier change) no longer apply.
            await deletePendingLinks(tx, user.id);
            // Always, also for an account verified before: copies of the address (profiles' workspace
            // members, whose domain verifies a vendor) and the gateway's session cache follow the move.
            emit('user.email_verified', { userId: user.id, email: link.newEmail });
            // The old address is told, and copies keyed by it can follow.
            emit('user.email_changed', {
              userId: user.id,
              oldEmail: user.email,
              newEmail: link.newEmail,
              firstName: user.firstName,
            });
            return { outcome: 'email-changed' };
          }
          if (!user.emailVerifiedAt) {
            await markEmailVerified(tx, user.id);
            emit('user.email_verified', { userId: user.id, email: user.email });
          }
          await sessions.endByToken(tx, emit, browserToken);
          return { outcome: 'verified', sessionToken: await sessions.start(tx, user.id) };
        });
      } catch (error) {
        // The unique index on users.email settles a race with a registration taking the address.
        if (isUniqueViolation(error)) fail('EMAIL_CHANGE_TAKEN');
        throw error;
      }
    },
  };
}

export type VerificationUseCases = ReturnType<typeof verificationUseCases>;
