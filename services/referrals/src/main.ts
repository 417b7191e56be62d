import { runService } from '@app/kit';
import { referralsService } from './service.ts';

await runService(referralsService);
