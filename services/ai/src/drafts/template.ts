import { NO_DESCRIPTION, NOT_FOUND, stripLegalSuffixes } from '@app/contracts';
import { compact } from '../search/normalize.ts';
import { BODY_MAX, SUBJECT_MAX, type DraftText, type NewReferral } from './draft.ts';

/** Who signs an intro the referrer's name may not be in: the platform that sends it, never the vendor. */
const PLATFORM_SIGNATURE = 'Referral Hub';

const known = (value: string) => {
  const text = value.trim();
  return text && text !== NOT_FOUND && text !== NO_DESCRIPTION ? text : '';
};

/** "Slack", or "Sales Hub from HubSpot" when the vendor's name adds something. */
function productPhrase(referral: NewReferral): string {
  const product = known(referral.project.productName) || 'this product';
  const vendor = known(referral.project.companyName) && stripLegalSuffixes(referral.project.companyName);
  return vendor && !compact(product).includes(compact(vendor)) ? `${product} from ${vendor}` : product;
}

/**
 * The intro email when no language model is configured: warm and professional, in the referrer's voice
 * when their name may be used, else from Referral Hub (which sends it) without naming the referrer. Never
 * in the vendor's name: the email comes from the referrer via Referral Hub, and the vendor has not written
 * it. An aware referred person ("as we discussed") gets a direct opener, anyone else a softer one.
 */
export function templateDraft(referral: NewReferral): DraftText {
  const { referrer, referred, isReferralAware: aware, canUseReferrerName: named } = referral;
  const product = known(referral.project.productName) || 'this product';
  const phrase = productPhrase(referral);
  const description = known(referral.project.description);
  const reason = referral.reason.trim().replace(/\n{3,}/g, '\n\n');
  const referrerName = `${referrer.firstName} ${referrer.lastName}`.trim();
  const greeting = `Hi ${referred.firstName.trim() || 'there'},`;

  const opener = named
    ? aware
      ? `As we discussed, I'd like to introduce you to ${phrase}.`
      : `I hope you're doing well. I recently came across ${phrase} and thought of you straight away, so I wanted to make a quick introduction.`
    : aware
      ? `Following your recent conversation with someone in your network, we're reaching out to introduce ${phrase}.`
      : `I hope this note finds you well. Someone in your network thought ${phrase} could be useful to you and asked us to reach out.`;

  const paragraphs = [greeting, opener];
  if (description) paragraphs.push(`In short: ${description}`);
  if (reason) paragraphs.push(`${named ? 'Why I thought of you' : 'Why they thought of you'}: ${reason}`);
  paragraphs.push(
    named
      ? "If it sounds interesting, just reply to this email and I'll make sure you're connected with the right person."
      : `If it sounds interesting, just reply to this email and we'll put you in touch with the ${product} team.`,
  );
  const signature = named
    ? ['Best regards,', referrerName, known(referrer.companyName)].filter(Boolean).join('\n')
    : `Best regards,\n${PLATFORM_SIGNATURE}`;
  paragraphs.push(signature);

  const subject = named
    ? aware
      ? `Introduction: ${referred.firstName.trim()}, meet ${product}`
      : `${referrer.firstName.trim() || referrerName} thought you'd like ${product}`
    : `An introduction to ${product}`;
  return {
    subject: subject.replace(/\s+/g, ' ').trim().slice(0, SUBJECT_MAX),
    body: paragraphs.join('\n\n').slice(0, BODY_MAX),
  };
}
