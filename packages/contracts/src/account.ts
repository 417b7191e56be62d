import { z } from 'zod';
import { emailField, passwordText } from './common.ts';
import { Password } from './auth.ts';

/** POST /api/account/password: the current password is checked; other sessions end. */
export const ChangePasswordRequest = z
  .strictObject({
    currentPassword: passwordText('Current password is required'),
    newPassword: Password,
    confirmPassword: z.string({ error: 'Please confirm the new password' }).max(1000, 'Passwords do not match'),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
export type ChangePasswordRequest = z.input<typeof ChangePasswordRequest>;

/** POST /api/account/email: the password is checked; the new address takes effect once verified. */
export const ChangeEmailRequest = z.strictObject({
  newEmail: emailField('Please enter a valid email address'),
  password: passwordText('Password is required'),
});
export type ChangeEmailRequest = z.input<typeof ChangeEmailRequest>;

export const ACCOUNT_MESSAGES = {
  passwordChanged: 'Password updated. Other sessions have been signed out.',
  wrongPassword: 'The password is not correct',
  emailChangeSent: 'We sent an email to the new address. Your email changes once you open the verification link in it.',
  sameEmail: 'That is already your email address',
} as const;
