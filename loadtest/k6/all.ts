// Every journey at once, in the mix of ../shared/profiles.ts (WEIGHTS):
//   k6 run -e BASE_URL=https://staging.example.com -e PROFILE=load -e RATE=20 loadtest/k6/all.ts
import { JOURNEY_NAMES, JOURNEYS } from '../shared/journeys.ts';
import { optionsFor, runJourney } from './lib.ts';

export const options = optionsFor(JOURNEY_NAMES, 'byName');

export function signUp(): void {
  runJourney(JOURNEYS.signUp);
}
export function search(): void {
  runJourney(JOURNEYS.search);
}
export function createReferral(): void {
  runJourney(JOURNEYS.createReferral);
}
export function teeUps(): void {
  runJourney(JOURNEYS.teeUps);
}
export function impact(): void {
  runJourney(JOURNEYS.impact);
}
export function vendorInbox(): void {
  runJourney(JOURNEYS.vendorInbox);
}
