import { z } from 'zod';
import { emailField } from './common.ts';

export const REFERRAL_SOURCES = [
  'Google',
  'Social Media',
  'Friend or Colleague',
  'Industry Event',
  'Blog or Article',
  'Other',
] as const;

/** POST /api/demo-request (spec 3 and 5). */
export const DemoRequest = z.strictObject({
  firstName: z
    .string({ error: 'First name is required' })
    .trim()
    .min(1, 'First name is required')
    .max(100, 'Must be at most 100 characters'),
  lastName: z
    .string({ error: 'Last name is required' })
    .trim()
    .min(1, 'Last name is required')
    .max(100, 'Must be at most 100 characters'),
  email: emailField('Invalid email address'),
  phone: z
    .string({ error: 'Phone number is required' })
    .trim()
    .min(6, 'Phone number is required')
    .max(40, 'Must be at most 40 characters'),
  website: z
    .string({ error: 'Company website is required' })
    .trim()
    .min(1, 'Company website is required')
    .max(300, 'Must be at most 300 characters'),
  referralSource: z.enum(REFERRAL_SOURCES, { error: 'Unknown referral source' }).optional(),
});
export type DemoRequest = z.input<typeof DemoRequest>;
