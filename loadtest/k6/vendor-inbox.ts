// k6 run -e BASE_URL=https://staging.example.com [-e PROFILE=load] loadtest/k6/vendor-inbox.ts
import { JOURNEYS } from '../shared/journeys.ts';
import { optionsFor, runJourney } from './lib.ts';

export const options = optionsFor(['vendorInbox'], 'default');

export default function (): void {
  runJourney(JOURNEYS.vendorInbox);
}
