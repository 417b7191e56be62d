import { z } from 'zod';
import { ChangeEmailRequest, ChangePasswordRequest } from '../account.ts';
import {
  AuthResponse,
  LoginRequest,
  RegisterRequest,
  ResendVerificationRequest,
  SetIntentRequest,
  User,
  VerifyEmailQuery,
  VerifyEmailResponse,
} from '../auth.ts';
import { idText, MessageResponse } from '../common.ts';
import { defineOperation } from '../operation.ts';

/** The identity the auth service vouches for; the gateway signs it for the other services. */
export const SessionIdentity = z.object({
  userId: z.string(),
  sessionId: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  emailVerified: z.boolean(),
});
export const ResolveSessionRequest = z.strictObject({
  token: idText('Session', 200, 'Session not found').min(1, 'token is required'),
});
export const ResolvedSession = z.object({ identity: SessionIdentity, expiresAt: z.iso.datetime() });

export const authOperations = {
  register: defineOperation({
    method: 'POST',
    path: '/api/register',
    service: 'auth',
    access: 'public',
    rateLimit: 'credentials',
    summary:
      'Create an account and send the verification email; no session (the link signs in). Answers the same for an address that has an account (its owner is emailed instead)',
    body: RegisterRequest,
    response: { status: 201, description: 'Accepted', schema: AuthResponse },
  }),
  login: defineOperation({
    method: 'POST',
    path: '/api/login',
    service: 'auth',
    access: 'public',
    rateLimit: 'credentials',
    summary: 'Sign in with email and password',
    body: LoginRequest,
    response: { status: 200, description: 'Signed in; sets the session cookie', schema: AuthResponse },
    errors: ['INVALID_CREDENTIALS', 'LOGIN_EMAIL_NOT_VERIFIED', 'LOGIN_BACKOFF'],
  }),
  logout: defineOperation({
    method: 'POST',
    path: '/api/logout',
    service: 'auth',
    access: 'public',
    endsSession: true,
    summary: 'End the current session',
    response: { status: 200, description: 'Signed out', schema: MessageResponse },
  }),
  getUser: defineOperation({
    method: 'GET',
    path: '/api/user',
    service: 'auth',
    access: 'user',
    summary: 'The signed-in user',
    response: { status: 200, description: 'Current user', schema: User },
  }),
  setIntent: defineOperation({
    method: 'PUT',
    path: '/api/user/intent',
    service: 'auth',
    access: 'user',
    summary: 'Record what the user came for (refer clients, receive referrals as a vendor, or both)',
    body: SetIntentRequest,
    response: { status: 200, description: 'The user, with the choice', schema: User },
  }),
  verifyEmail: defineOperation({
    method: 'GET',
    path: '/api/verify-email',
    service: 'auth',
    access: 'public',
    summary:
      'Open an emailed link: verify the address and sign in (sets the session cookie), or confirm an email change',
    query: VerifyEmailQuery,
    response: { status: 200, description: 'Verified', schema: VerifyEmailResponse },
    errors: ['VERIFICATION_LINK_INVALID', 'EMAIL_CHANGE_TAKEN'],
  }),
  resendVerification: defineOperation({
    method: 'POST',
    path: '/api/resend-verification',
    service: 'auth',
    access: 'public',
    rateLimit: 'credentials',
    summary: 'Send a new verification link (answers the same whether or not the email is registered)',
    body: ResendVerificationRequest,
    response: { status: 200, description: 'Accepted', schema: MessageResponse },
  }),
  changePassword: defineOperation({
    method: 'POST',
    path: '/api/account/password',
    service: 'auth',
    access: 'user',
    rateLimit: 'credentials',
    summary: 'Change the password (current one checked; other sessions end, pending email changes are cancelled)',
    body: ChangePasswordRequest,
    response: { status: 200, description: 'Changed', schema: MessageResponse },
    errors: ['WRONG_PASSWORD', 'LOGIN_BACKOFF'],
  }),
  changeEmail: defineOperation({
    method: 'POST',
    path: '/api/account/email',
    service: 'auth',
    access: 'user',
    rateLimit: 'credentials',
    summary:
      'Change the email (password checked); takes effect when the link sent to the new address is opened. An address with an account gets the same answer and no link (its owner is told)',
    body: ChangeEmailRequest,
    response: { status: 200, description: 'Link sent', schema: MessageResponse },
    errors: ['WRONG_PASSWORD', 'SAME_EMAIL', 'LOGIN_BACKOFF'],
  }),
  resolveSession: defineOperation({
    method: 'POST',
    path: '/internal/sessions/resolve',
    service: 'auth',
    access: 'internal',
    summary: 'The identity behind a session token (the gateway only)',
    body: ResolveSessionRequest,
    response: { status: 200, description: 'The session', schema: ResolvedSession },
    errors: ['SESSION_NOT_FOUND'],
  }),
} as const;
