import { z } from 'zod';
import { emailField, requiredText, text, urlText } from './common.ts';

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
  firstName: requiredText('First name is required', 100),
  lastName: requiredText('Last name is required', 100),
  email: emailField('Invalid email address'),
  phone: text({ label: 'Phone number', max: 40, required: 'Phone number is required' }).min(
    6,
    'Phone number is required',
  ),
  website: urlText('Company website', 300, 'Company website is required'),
  referralSource: z.enum(REFERRAL_SOURCES, { error: 'Unknown referral source' }).optional(),
});
export type DemoRequest = z.input<typeof DemoRequest>;
