import { runService } from '@app/kit';
import { profilesService } from './service.ts';

await runService(profilesService);
