// k6 run -e BASE_URL=https://staging.example.com [-e PROFILE=load] loadtest/k6/tee-ups.ts
import { JOURNEYS } from '../shared/journeys.ts';
import { optionsFor, runJourney } from './lib.ts';

export const options = optionsFor(['teeUps'], 'default');

export default function (): void {
  runJourney(JOURNEYS.teeUps);
}
