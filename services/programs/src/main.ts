import { runService } from '@app/kit';
import { programsService } from './service.ts';

await runService(programsService);
