import { CreateVendorRequest, UpdateVendorRequest } from '@app/contracts';
import { z } from 'zod';

/** The create form as typed; the lead inbox may be left blank (the creator's email is used then). */
export interface CreateWorkspaceValues {
  name: string;
  website: string;
  leadInbox: string;
}

export const EMPTY_WORKSPACE: CreateWorkspaceValues = { name: '', website: '', leadInbox: '' };

/** The request the create form makes, checked with the contract (a blank lead inbox is left out). */
export const CreateWorkspaceForm = z
  .custom<CreateWorkspaceValues>()
  .transform(({ leadInbox, ...rest }) => ({ ...rest, ...(leadInbox.trim() ? { leadInbox } : {}) }))
  .pipe(CreateVendorRequest);

/** Name and website (owners): both required, as when creating. */
export const DetailsForm = CreateVendorRequest.pick({ name: true, website: true });

/** The lead inbox (members of a verified workspace). */
export const LeadInboxForm = UpdateVendorRequest.pick({ leadInbox: true }).required();

export const ROLE_LABELS = { owner: 'Owner', member: 'Member' } as const;
