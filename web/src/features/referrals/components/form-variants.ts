/**
 * The vendor referral forms the 'Automating Referral Form' preview imitates, chosen by the vendor's website
 * host. Unknown hosts get the generic form.
 */
export interface FormVariant {
  key: string;
  /** Shown in the mock page's header. */
  brand: string;
  title: string;
  /** Path shown after the host in the mock address bar. */
  path: string;
  /** Tailwind classes of the mock page's header band and button. */
  accentClass: string;
  labels: { firstName: string; lastName: string; email: string; message: string };
  submitLabel: string;
}

const KNOWN: Array<{ domain: string; variant: Omit<FormVariant, 'key'> }> = [
  {
    domain: 'hubspot.com',
    variant: {
      brand: 'HubSpot',
      title: 'Solutions Partner Referral',
      path: '/partners/referral',
      accentClass: 'bg-orange-500 text-white',
      labels: {
        firstName: 'Contact first name',
        lastName: 'Contact last name',
        email: 'Contact email',
        message: 'Why is this a good fit?',
      },
      submitLabel: 'Submit referral',
    },
  },
  {
    domain: 'salesforce.com',
    variant: {
      brand: 'Salesforce',
      title: 'Refer a Customer',
      path: '/partners/refer',
      accentClass: 'bg-sky-600 text-white',
      labels: { firstName: 'First Name', lastName: 'Last Name', email: 'Work Email', message: 'Opportunity notes' },
      submitLabel: 'Send Referral',
    },
  },
  {
    domain: 'shopify.com',
    variant: {
      brand: 'Shopify',
      title: 'Partner Referral Form',
      path: '/partners/refer-a-merchant',
      accentClass: 'bg-emerald-600 text-white',
      labels: {
        firstName: 'Merchant first name',
        lastName: 'Merchant last name',
        email: 'Merchant email',
        message: 'About the merchant',
      },
      submitLabel: 'Refer merchant',
    },
  },
  {
    domain: 'notion.so',
    variant: {
      brand: 'Notion',
      title: 'Refer a Team',
      path: '/affiliates/refer',
      accentClass: 'bg-neutral-900 text-white',
      labels: {
        firstName: 'First name',
        lastName: 'Last name',
        email: 'Email address',
        message: 'How will their team use Notion?',
      },
      submitLabel: 'Send referral',
    },
  },
];

/** The host of a website given with or without a scheme, without a leading 'www.'; '' when none. */
export function websiteHost(website: string | null | undefined): string {
  const raw = website?.trim();
  if (!raw) return '';
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
    return url.hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return '';
  }
}

export function formVariantFor(website: string | null | undefined, company: string): FormVariant {
  const host = websiteHost(website);
  const known = KNOWN.find(({ domain }) => host === domain || host.endsWith(`.${domain}`));
  if (known) return { key: known.domain, ...known.variant };
  return {
    key: 'generic',
    brand: company.trim() || 'Vendor',
    title: 'Refer a Friend',
    path: '/referral',
    accentClass: 'bg-primary text-primary-foreground',
    labels: { firstName: 'First name', lastName: 'Last name', email: 'Email', message: 'Message' },
    submitLabel: 'Submit',
  };
}

/** The address shown in the mock browser. */
export function previewAddress(website: string | null | undefined, company: string, variant: FormVariant): string {
  const host =
    websiteHost(website) ||
    `${
      company
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '')
        .slice(0, 40) || 'vendor'
    }.com`;
  return `https://${host}${variant.path}`;
}
