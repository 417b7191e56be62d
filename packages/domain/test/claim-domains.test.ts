import { describe, expect, it } from 'vitest';
import { emailOnDomain, isPublicSuffixLike, isWebmailDomain, nameNamesDomain } from '../src/index.ts';

/**
 * Domains that prove nothing about a company: a webmail provider's country variants (anyone can open
 * ana@outlook.fr) and a registry suffix (co.uk: whoever has any *.co.uk address would "prove" it, and every
 * *.co.uk product would route to that workspace).
 */
describe('domains that cannot identify a company', () => {
  const countryWebmail = [
    'outlook.fr',
    'outlook.de',
    'outlook.com.br',
    'outlook.co.uk',
    'hotmail.ca',
    'hotmail.com.br',
    'hotmail.co.jp',
    'yahoo.ca',
    'yahoo.com.au',
    'yahoo.co.in',
    'yahoo.com.br',
    'live.de',
    'live.nl',
    'live.com.au',
    'aol.co.uk',
    'gmx.fr',
    'yandex.ua',
    'gmail.co.uk',
  ];

  it.each(countryWebmail)('%s (and its subdomains, any case, trailing dot) is webmail', (domain) => {
    expect(isWebmailDomain(domain)).toBe(true);
    expect(isWebmailDomain(`mail.${domain}`)).toBe(true);
    expect(isWebmailDomain(`${domain.toUpperCase()}.`)).toBe(true);
    expect(emailOnDomain(`ana@${domain}`, domain)).toBe(false);
  });

  it('does not take a company whose name merely contains a provider for webmail', () => {
    for (const domain of ['outlookpartners.com', 'live-agent.io', 'myyahoo.com', 'gmail.com.evil.test', 'acme.com'])
      expect(isWebmailDomain(domain), domain).toBe(false);
  });

  it.each(['co.uk', 'com.au', 'com.br', 'co.jp', 'org.uk', 'ac.uk', 'co.in', 'gov.uk', 'com.mx'])(
    '%s is a registry suffix: no website, no proof',
    (suffix) => {
      expect(isPublicSuffixLike(suffix)).toBe(true);
      expect(isPublicSuffixLike(`${suffix}.`)).toBe(true);
      expect(emailOnDomain(`ana@evil.${suffix}`, suffix)).toBe(false);
      expect(emailOnDomain(`ana@${suffix}`, suffix)).toBe(false);
    },
  );

  it('keeps real company domains under a registry suffix and short company domains', () => {
    for (const domain of ['acme.co.uk', 'bbc.co.uk', 'acme.com', 'x.ai', 'acme.io', 'on.net', 'sky.com'])
      expect(isPublicSuffixLike(domain), domain).toBe(false);
    expect(emailOnDomain('ana@acme.co.uk', 'acme.co.uk')).toBe(true);
    expect(emailOnDomain('ana@eu.acme.co.uk', 'acme.co.uk')).toBe(true);
  });

  it('never lets a look-alike prove a company domain', () => {
    for (const email of [
      'ana@acme.com.evil.test',
      'ana@evil-acme.com',
      'ana@evilacme.com',
      'ana@xn--cme-8cd.com', // "аcme.com" with a Cyrillic а
      'ana@аcme.com',
      'ana@acme.co',
    ])
      expect(emailOnDomain(email, 'acme.com'), email).toBe(false);
    expect(emailOnDomain('ANA@EU.ACME.COM', 'acme.com')).toBe(true);
  });
});

describe('nameNamesDomain: a product known by its names, and the workspace domain they name', () => {
  it.each([
    ['Initrode Systems, Inc.', 'initrode.example'],
    ['Acme', 'eu.acme.co.uk'],
    ['Blue Sky Ltd', 'bluesky.io'],
    ['Blue Sky Ltd', 'blue-sky.com'],
    ['HubSpot', 'hubspot.com'],
    ['HUBSPOT CRM', 'hubspot.com'],
    ['Initrode Systems', 'initrodesystems.com'],
    // The first word alone is the name as far as a domain goes (Google Cloud, google.com).
    ['Blue Sky Ltd', 'blue.com'],
  ])('%s names %s', (name, domain) => expect(nameNamesDomain(name, domain)).toBe(true));

  it.each([
    // The attack: a verified workspace that calls itself after another company.
    ['HubSpot', 'evil-test.com'],
    ['HubSpot', 'hubspot.evil.com'],
    // A prefix of the name is not its name.
    ['HubSpot', 'hub.io'],
    ['HubSpot', 'h.io'],
    ['Initrode', 'initrodesystems.com'],
    ['Acme', 'co.uk'],
    ['', 'acme.com'],
    ['Acme', ''],
    ['Acme', null],
  ])('%s does not name %s', (name, domain) => expect(nameNamesDomain(name, domain)).toBe(false));
});
