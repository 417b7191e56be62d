/**
 * The dashboard search (spec 9): the text a referral is found by, written once at creation
 * (Referral.searchText in the schema), and the term a search looks for in it.
 */

/** The lowercased text the dashboard search runs over. */
export function searchTextOf(fields: {
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  projectCompanyName: string;
  reason: string;
}): string {
  // The unit separator keeps a search from matching across two fields.
  return [
    `${fields.firstName} ${fields.lastName}`,
    fields.email,
    fields.company,
    fields.projectCompanyName,
    fields.reason,
  ]
    .join('\u001f')
    .toLowerCase();
}

/** What a search term is looked for as in the lowercased text: lowercased the same way. */
export const searchTermOf = (term: string) => term.toLowerCase();
