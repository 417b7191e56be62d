import { z } from 'zod';
import { Email, passwordText, requiredText, text } from './common.ts';

/**
 * Passwords have no rule but "required" (spec 5) and the text rule's refusal of control characters; never
 * trimmed or normalized. The upper bound only protects the hasher.
 */
export const Password = passwordText('Password is required');

export const LoginRequest = z.strictObject({ email: Email, password: Password });
export type LoginRequest = z.input<typeof LoginRequest>;

export const RegisterRequest = z.strictObject({
  firstName: requiredText('First name is required', 100),
  lastName: requiredText('Last name is required', 100),
  companyName: requiredText('Company name is required', 200),
  email: Email,
  password: Password,
});
export type RegisterRequest = z.input<typeof RegisterRequest>;

export const AuthResponse = z.object({ message: z.string(), emailVerificationSent: z.boolean() });
export type AuthResponse = z.infer<typeof AuthResponse>;

/**
 * What a user came for (issue 12), chosen once after sign-up: referring clients, receiving referrals as a
 * vendor, or both. Null until chosen; it decides the first screen.
 */
export const USER_INTENTS = ['refer', 'vendor', 'both'] as const;
export const UserIntent = z.enum(USER_INTENTS, { error: 'Choose how you will use Referral Hub' });
export type UserIntent = z.infer<typeof UserIntent>;
export const SetIntentRequest = z.strictObject({ intent: UserIntent });
export type SetIntentRequest = z.input<typeof SetIntentRequest>;

export const User = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  companyName: z.string(),
  isAdmin: z.boolean(),
  emailVerified: z.boolean(),
  createdAt: z.iso.datetime(),
  /** Null until the user chose (older sessions' answers may lack it). */
  intent: UserIntent.nullable().default(null),
});
export type User = z.infer<typeof User>;

export const ResendVerificationRequest = z.strictObject({ email: Email });
export type ResendVerificationRequest = z.input<typeof ResendVerificationRequest>;

export const VERIFY_LINK_MISSING = 'Invalid verification link. Missing token or user ID.';

const link = {
  label: 'Verification link',
  required: VERIFY_LINK_MISSING,
  typeMessage: VERIFY_LINK_MISSING,
  maxMessage: 'Invalid verification link.',
  trim: false,
};
export const VerifyEmailQuery = z.strictObject({
  token: text({ ...link, max: 200 }),
  userId: text({ ...link, max: 100 }),
});
export type VerifyEmailQuery = z.infer<typeof VerifyEmailQuery>;

export const VerifyEmailResponse = z.object({ message: z.string(), redirectUrl: z.string().optional() });
export type VerifyEmailResponse = z.infer<typeof VerifyEmailResponse>;

/** Messages the web matches on or shows as they are. */
export const AUTH_MESSAGES = {
  loggedIn: 'Logged in successfully',
  registered: 'Account created. Please check your email to verify your account.',
  invalidCredentials: 'Invalid email or password',
  emailNotVerified: 'Email not verified. Please check your inbox for a verification link or request a new one.',
  loggedOut: 'Logged out',
  notAuthenticated: 'Authentication required',
  verified: 'Email verified successfully',
  verifyFailed: 'This verification link is invalid or has expired. Please request a new one.',
  resendAccepted: 'If an account exists for this email and is not yet verified, a new verification link has been sent.',
} as const;
