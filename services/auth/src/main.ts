import { runService } from '@app/kit';
import { authService } from './service.ts';

await runService(authService);
