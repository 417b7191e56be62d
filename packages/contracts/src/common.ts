import { z } from 'zod';

export const MessageResponse = z.object({ message: z.string() });

/** Spec section 5: text, at sign, text, dot, text, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_MESSAGE = 'Please enter a valid email address';

/** An email address, trimmed and lower-cased; `message` is what the screen shows when it is not one. */
export const emailField = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(254, 'Email must be at most 254 characters')
    .regex(EMAIL_PATTERN, message)
    .transform((email) => email.toLowerCase());

export const Email = emailField(EMAIL_MESSAGE);

export const requiredText = (message: string, max = 200) =>
  z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`);
