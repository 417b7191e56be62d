import { MessageResponse } from '../common.ts';
import { DemoRequest } from '../demo.ts';
import { defineOperation } from '../operation.ts';
import { Bounties, LeadCriteria, SavedBounties, SavedLeadCriteria } from '../profiles.ts';

export const profileOperations = {
  getLeadCriteria: defineOperation({
    method: 'GET',
    path: '/api/lead-criteria',
    service: 'profiles',
    access: 'user',
    summary: "The user's saved Ideal Customer Profile",
    response: { status: 200, description: 'Saved profile', schema: SavedLeadCriteria },
    errors: ['LEAD_CRITERIA_NOT_FOUND'],
  }),
  saveLeadCriteria: defineOperation({
    method: 'POST',
    path: '/api/lead-criteria',
    service: 'profiles',
    access: 'verified',
    summary: 'Save the Ideal Customer Profile (the eleven fields); requires a verified email',
    body: LeadCriteria,
    response: { status: 200, description: 'Saved', schema: SavedLeadCriteria },
    errors: ['EMPTY_CRITERIA'],
  }),
  getBounties: defineOperation({
    method: 'GET',
    path: '/api/bounties',
    service: 'profiles',
    access: 'user',
    summary: "The user's saved bounties",
    response: { status: 200, description: 'Saved bounties', schema: SavedBounties },
    errors: ['BOUNTIES_NOT_FOUND'],
  }),
  saveBounties: defineOperation({
    method: 'POST',
    path: '/api/bounties',
    service: 'profiles',
    access: 'verified',
    summary: 'Save the bounties per milestone; requires a verified email',
    body: Bounties,
    response: { status: 200, description: 'Saved', schema: SavedBounties },
  }),
  requestDemo: defineOperation({
    method: 'POST',
    path: '/api/demo-request',
    service: 'profiles',
    access: 'public',
    rateLimit: 'credentials',
    summary: 'Ask for a demo; the sales team is told by email',
    body: DemoRequest,
    response: { status: 201, description: 'Stored', schema: MessageResponse },
  }),
} as const;
