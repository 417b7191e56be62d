/** Landing page copy. Testimonials and aggregate statistics are invented marketing data (spec 1). */
import * as paths from '@/config/public-paths';

export const ANCHORS = [
  { href: '#how-it-works', label: 'How it works' },
  { href: '#features', label: 'Features' },
  { href: '#pricing', label: 'Pricing' },
] as const;

export const FEATURES = [
  {
    title: 'AI-Powered Matching',
    text: 'Describe a client need and get the partner programs that fit it best, ranked by fit and payout.',
  },
  {
    title: '24/7 Automation',
    text: 'Referral forms are filled and intro emails drafted while you work on your own clients.',
  },
  {
    title: 'Smart Communication',
    text: 'Warm introduction emails written for you to review, edit and send. Nothing goes out without your approval.',
  },
  {
    title: 'Quality Partnerships',
    text: 'Vendors set an ideal customer profile, so only prospects that match reach them.',
  },
  {
    title: 'Relationship Management',
    text: 'See who you referred, to whom and when, and keep a fair give-and-get with every partner.',
  },
  {
    title: 'Success Tracking',
    text: 'Follow each referral from warm intro to closed-won and see the commission it earns.',
  },
] as const;

export const TESTIMONIALS = [
  {
    quote:
      'We used to turn away prospects we could not serve. Now every one of them becomes a warm intro and a commission.',
    name: 'Maya Thompson',
    role: 'Founder, Northwind Digital',
  },
  {
    quote:
      'The AI found a partner program I had never heard of that fit my client perfectly. The first payout covered a year of the plan.',
    name: 'Daniel Okafor',
    role: 'Independent IT Consultant',
  },
  {
    quote: 'Our agency refers three times as many clients as before, and I spend minutes on it instead of hours.',
    name: 'Sofia Lindqvist',
    role: 'Managing Partner, Brightline Agency',
  },
] as const;

export const STATS = [
  { value: '12,000+', label: 'Referrals sent' },
  { value: '$4.8M', label: 'Commissions earned' },
  { value: '850+', label: 'Partner programs' },
  { value: '94%', label: 'Match satisfaction' },
] as const;

export type Billing = 'monthly' | 'annual';

export interface Plan {
  name: string;
  badge?: string;
  monthly: number;
  annual: number;
  referrals: string;
  features: string[];
  keeps: string;
  cta: { label: string; to: string };
  highlighted?: boolean;
}

/** Spec 9. Scale's 'Book a Call' goes to /demo-request (README decision). */
export const PLANS: Plan[] = [
  {
    name: 'Starter',
    monthly: 0,
    annual: 0,
    referrals: '5 referrals per month',
    features: ['AI partner matching', 'Direct-send', 'Basic analytics', 'Community support'],
    keeps: 'You keep 70% of each payout',
    cta: { label: 'Get Started Free', to: paths.signup },
  },
  {
    name: 'Growth',
    badge: 'Most Popular',
    monthly: 19,
    annual: 16,
    referrals: '100 referrals per month',
    features: [
      'Priority placement',
      'Automated outreach sequences',
      'Revenue and ROI dashboard',
      'Email and chat support',
    ],
    keeps: 'You keep 80% (product fee 20%)',
    cta: { label: 'Start Growth', to: paths.signup },
    highlighted: true,
  },
  {
    name: 'Scale',
    monthly: 49,
    annual: 40,
    referrals: 'Unlimited referrals',
    features: [
      'API and webhooks',
      'White-label emails and domain',
      'Dedicated CSM and Slack channel',
      'Team permissions',
    ],
    keeps: 'You keep 90% (fee 10%)',
    cta: { label: 'Book a Call', to: paths.demoRequest },
  },
];

export const FAQ = [
  {
    q: 'How does the product fee work?',
    a: 'Vendors pay a referral fee when a deal closes. You keep your plan’s share and the product keeps the rest. For example, a 20% vendor fee on a $10,000 deal is $2,000; on Growth you keep $1,600 and the product gets $400.',
  },
  {
    q: 'How much of each payout do I keep?',
    a: 'Starter keeps 70% of each payout, Growth 80% (product fee 20%) and Scale 90% (fee 10%).',
  },
  {
    q: 'Is my first referral really free?',
    a: 'Yes. Your first referral is free on every plan, and there is nothing to set up: sign up, describe a client need and send.',
  },
  {
    q: 'Can I switch between monthly and annual billing?',
    a: 'Yes. Annual billing saves 16%: Growth is $16 per month instead of $19, Scale $40 instead of $49.',
  },
] as const;

export const FOOTER = [
  {
    title: 'Product',
    links: [
      { label: 'How it works', href: '#how-it-works' },
      { label: 'Features', href: '#features' },
      { label: 'Pricing', href: '#pricing' },
    ],
  },
  {
    title: 'Company',
    links: [
      { label: 'Schedule a demo', to: paths.demoRequest },
      { label: 'Create an account', to: paths.signup },
    ],
  },
  {
    title: 'Support',
    links: [
      { label: 'Login', to: paths.login },
      { label: 'Resend verification email', to: paths.resendVerification },
      { label: 'Pricing FAQ', href: '#faq' },
    ],
  },
] as const;
