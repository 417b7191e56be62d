import { runService } from '@app/kit';
import { mailService } from './service.ts';

await runService(mailService);
