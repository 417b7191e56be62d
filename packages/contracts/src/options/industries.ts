/** About 250 industries, Accounting through Writing and Editing (spec 3). Filled in by the vendor-side work. */
export const INDUSTRIES: readonly string[] = ['Accounting', 'Computer Software', 'Writing and Editing'];
