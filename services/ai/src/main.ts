import { runService } from '@app/kit';
import { aiService } from './service.ts';

await runService(aiService);
