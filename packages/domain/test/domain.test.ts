import { describe, expect, it } from 'vitest';
import {
  companyKey,
  isReferralProgramText,
  milestonesReached,
  possessive,
  STAGE_MILESTONES,
  STAGES,
  stageLabel,
} from '../src/index.ts';

describe('isReferralProgramText (spec 4), the one rule for server and web', () => {
  it.each([
    ['NO: this vendor has no referral program we know of.', false],
    ['No.', false],
    ['no program', false],
    ['We have no referral program yet', false],
    ['', false],
    ['Notion pays 20% of the first year', true],
    ['Partners earn $500 per closed deal.', true],
  ])('%j -> %s', (text, expected) => {
    expect(isReferralProgramText(text)).toBe(expected);
  });
});

describe('companyKey', () => {
  it('treats legal suffixes, case and spacing as one company', () => {
    expect(companyKey('HubSpot, Inc.')).toBe(companyKey('hubspot'));
    expect(companyKey('  Slack   Technologies, LLC ')).toBe('slack');
    expect(companyKey('Not found')).toBe('');
    expect(companyKey(null)).toBe('');
  });
});

describe('the stage model', () => {
  it('lists the spec stages once, in order, with their labels', () => {
    expect(STAGES.map(stageLabel)).toEqual([
      'Tee-up',
      'Warm Intro',
      'Demo',
      'Intro Occurred',
      'Closed-Won',
      'Declined',
    ]);
  });

  it('reaches every milestone up to the furthest stage, none for Tee-up or Declined', () => {
    expect(milestonesReached('became_customer')).toEqual(Object.values(STAGE_MILESTONES));
    expect(milestonesReached('intro_occurred')).toEqual(['qualifiedLead', 'meetingHeld']);
    expect(milestonesReached('pending')).toEqual([]);
    expect(milestonesReached('declined')).toEqual([]);
  });
});

describe('vendor domains', () => {
  it('never counts webmail, and accepts the domain or its subdomains', async () => {
    const { emailOnDomain, isWebmailDomain } = await import('../src/index.ts');
    expect(isWebmailDomain('gmail.com')).toBe(true);
    expect(isWebmailDomain('mail.yahoo.com')).toBe(true);
    expect(isWebmailDomain('hubspot.com')).toBe(false);
    expect(emailOnDomain('ana@hubspot.com', 'hubspot.com')).toBe(true);
    expect(emailOnDomain('ana@eu.hubspot.com', 'hubspot.com')).toBe(true);
    expect(emailOnDomain('ana@nothubspot.com', 'hubspot.com')).toBe(false);
    expect(emailOnDomain('ana@hubspot.com.evil.io', 'hubspot.com')).toBe(false);
    expect(emailOnDomain('ana@gmail.com', 'gmail.com')).toBe(false);
  });
});

describe("possessive: a name's possessive in the product's texts", () => {
  it.each([
    ['Acme', "Acme's"],
    ['Acme Analytics', "Acme Analytics'"],
    ['WIDGETS', "WIDGETS'"],
    ['Acme Inc.', "Acme Inc.'s"],
    ['the vendor', "the vendor's"],
  ])('%j -> %j', (name, expected) => {
    expect(possessive(name)).toBe(expected);
  });
});
