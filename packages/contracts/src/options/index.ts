/** The option lists of spec section 3, defined once for the forms and the server. */
export const COMPANY_SIZES = [
  'Self-Employed',
  '2-10',
  '11-50',
  '51-200',
  '201-500',
  '501-1,000',
  '1,001-5,000',
  '5,001-10,000',
  '10,001+',
] as const;
export const SENIORITY_LEVELS = [
  'Owner',
  'Partner',
  'C-suite',
  'VP',
  'Director',
  'Head',
  'Manager',
  'Senior',
  'Entry',
  'Assistant',
  'Intern / Trainee',
  'Freelance',
  'Certified',
] as const;
export const FUNDING_STAGES = ['Pre-seed', 'Seed', 'Series A', 'Series B', 'Growth', 'Public', 'Bootstrapped'] as const;
export { DEPARTMENTS } from './departments.ts';
export { INDUSTRIES } from './industries.ts';
export { COUNTRIES, type Country } from './countries.ts';
export { JOB_TITLES } from './job-titles.ts';
