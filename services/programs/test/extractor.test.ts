import { describe, expect, it } from 'vitest';
import { isVerbatim } from '../src/analyze.ts';
import { detectType } from '../src/detect.ts';
import { extractProgram, findWebsite } from '../src/extractor.ts';
import { zipEntries } from '../src/zip.ts';
import { companyLabelOfWebsite, companyOfTitle, findVendorName } from '../src/vendor-name.ts';
import { makeDocx, makePdf, makeZip, PNG } from './documents.ts';
import { PROGRAM_DOCUMENT, REWARD_SECTION } from './fixtures.ts';

describe('deterministic extractor', () => {
  it('reads a realistic program document and keeps the reward section verbatim', () => {
    const program = extractProgram(PROGRAM_DOCUMENT);
    expect(program).toEqual({
      programName: 'Northwind Analytics Partner Referral Program',
      description:
        'Northwind Analytics builds dashboards for retail chains. Partners who introduce retailers to us share in the revenue they bring.',
      website: 'https://northwind.example.com/partners',
      rewardDetails: REWARD_SECTION,
      vendorName: 'Northwind Analytics',
    });
    expect(PROGRAM_DOCUMENT).toContain(program.rewardDetails);
  });

  it('uses labels when the document has them', () => {
    const program = extractProgram(
      'Partner Brief 2026\n\nProgram name: Contoso Referral Rewards\nDescription: Contoso sells payroll software.\nWebsite: contoso.example.io\n\nRewards\nEarn $250 per qualified demo.\n$2,000 when the deal closes.',
    );
    expect(program).toEqual({
      programName: 'Contoso Referral Rewards',
      description: 'Contoso sells payroll software.',
      website: 'https://contoso.example.io',
      rewardDetails: 'Earn $250 per qualified demo.\n$2,000 when the deal closes.',
      vendorName: 'Contoso',
    });
  });

  it('takes the paragraphs about rewards when no heading names them', () => {
    const text =
      "Fabrikam Partners\n\nFabrikam makes warehouse robots for mid-size logistics companies.\n\nFor every referred customer that signs, we pay a referral fee of 10% of the first order, up to $5,000.\nThe fee is paid after the customer's 60-day acceptance period.\n\nQuestions? Write to us.";
    const program = extractProgram(text);
    expect(program.programName).toBe('Fabrikam Partners');
    expect(program.description).toBe('Fabrikam makes warehouse robots for mid-size logistics companies.');
    expect(program.rewardDetails).toBe(
      "For every referred customer that signs, we pay a referral fee of 10% of the first order, up to $5,000.\nThe fee is paid after the customer's 60-day acceptance period.",
    );
    expect(program.website).toBe('');
    expect(program.vendorName).toBe('Fabrikam');
  });

  it('proposes the vendor named by the document', () => {
    expect(companyOfTitle('Northwind Analytics Partner Referral Program')).toBe('Northwind Analytics');
    expect(companyOfTitle("Acme's Affiliate Programme 2026")).toBe('Acme');
    expect(companyOfTitle('Partner Brief 2026')).toBe('');
    expect(companyOfTitle('Referral Program')).toBe('');
    expect(companyLabelOfWebsite('https://www.hubspot.com/partners')).toBe('hubspot');
    expect(companyLabelOfWebsite('partners.hubspot.com')).toBe('hubspot');
    expect(companyLabelOfWebsite('https://acme.co.uk')).toBe('acme');
    expect(companyLabelOfWebsite('https://northwind.example.com/x')).toBe('northwind');
    expect(companyLabelOfWebsite('https://www.example.com')).toBe('');
    expect(
      findVendorName('Refer and earn\n\nGlobex Corporation helps plants. See globex.com.', {
        programName: 'Refer and earn',
        website: 'https://globex.com',
      }),
    ).toBe('Globex Corporation');
    expect(findVendorName('Vendor: Initech\n', { programName: 'Initech Partners', website: '' })).toBe('Initech');
  });

  it('finds websites as URLs or domains, not emails', () => {
    expect(findWebsite('See https://a.example.com/x?y=1, then call.')).toBe('https://a.example.com/x?y=1');
    expect(findWebsite('Mail jo@acme.com or visit acme.io.')).toBe('https://acme.io');
    expect(findWebsite('No site here, e.g. nothing.')).toBe('');
  });

  it('checks reward details against the document, whitespace and list markers aside', () => {
    expect(isVerbatim(REWARD_SECTION, PROGRAM_DOCUMENT)).toBe(true);
    expect(
      isVerbatim(
        'Tier 1 (1-3 closed deals per year):   15% of first-year ACV.\n* Deals must close within 180 days of the referral being registered.',
        PROGRAM_DOCUMENT,
      ),
    ).toBe(true);
    expect(isVerbatim('Partners earn 15% of ACV.', PROGRAM_DOCUMENT)).toBe(false);
    expect(isVerbatim('', PROGRAM_DOCUMENT)).toBe(false);
  });
});

describe('type detection from content', () => {
  it('recognizes each supported type by its bytes', async () => {
    expect(detectType(makePdf(['x']))).toBe('pdf');
    expect(detectType(await makeDocx(['x']))).toBe('docx');
    expect(detectType(PNG)).toBe('png');
    expect(detectType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]))).toBe('jpeg');
    expect(detectType(Buffer.from('Plain text, ünïcödé — fine.\n'))).toBe('txt');
    const ole = Buffer.alloc(1024);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(ole);
    expect(detectType(ole)).toBeNull(); // an OLE file without a WordDocument stream (.xls, .msi...)
    Buffer.from('WordDocument', 'utf16le').copy(ole, 512);
    expect(detectType(ole)).toBe('doc');
  });

  it('refuses what is none of them', async () => {
    expect(detectType(await makeZip())).toBeNull();
    expect(zipEntries(await makeZip())?.map((entry) => entry.name)).toEqual(['readme.txt']);
    expect(detectType(Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00]))).toBeNull(); // MZ executable
    expect(detectType(Buffer.from([0xc3, 0x28, 0x41]))).toBeNull(); // invalid UTF-8
    expect(detectType(Buffer.from('GIF89a\u0001\u0000'))).toBeNull();
  });
});
