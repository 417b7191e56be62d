/** Several hundred job titles (spec 3). Filled in by the vendor-side work. */
export const JOB_TITLES: readonly string[] = ['Chief Executive Officer'];
