/** A realistic program document: title, overview, website, steps, a reward section with tiers and conditions, FAQ. */
export const PROGRAM_DOCUMENT = `Northwind Analytics Partner Referral Program

Northwind Analytics builds dashboards for retail chains. Partners who introduce retailers to us share in the revenue they bring.

Website: https://northwind.example.com/partners
Contact: partners@northwind.example.com

How It Works
1. Register at the partner portal and accept the partner terms.
2. Submit the prospect's company name and a contact person.
3. Our sales team confirms the referral within 5 business days.

Commission Structure
Tier 1 (1-3 closed deals per year): 15% of first-year ACV.
Tier 2 (4+ closed deals per year): 20% of first-year ACV, plus a $1,000 bonus per deal.
- Commission is paid in USD within 45 days of the customer's first invoice being paid.
- Deals must close within 180 days of the referral being registered.
- Existing customers and open opportunities are not eligible.

Frequently Asked Questions
Who can join? Any consultant or agency working with retailers.
`;

export const REWARD_SECTION = `Tier 1 (1-3 closed deals per year): 15% of first-year ACV.
Tier 2 (4+ closed deals per year): 20% of first-year ACV, plus a $1,000 bonus per deal.
- Commission is paid in USD within 45 days of the customer's first invoice being paid.
- Deals must close within 180 days of the referral being registered.
- Existing customers and open opportunities are not eligible.`;
