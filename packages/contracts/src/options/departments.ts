/** 26 functions, Administrative to Unemployed (spec 3). */
export const DEPARTMENTS = [
  'Administrative', 'Consulting', 'Customer Service', 'Design', 'Education', 'Engineering', 'Entrepreneurship', 'Finance',
  'Healthcare', 'Human Resources', 'Information Technology', 'Legal', 'Manufacturing', 'Marketing', 'Media', 'Military',
  'Operations', 'Product', 'Public Service', 'Real Estate', 'Research', 'Retail', 'Sales', 'Student', 'Transportation', 'Unemployed',
] as const;
