import { runProcess } from '@app/kit';
import { createReferralsService, readReferralsConfig } from './service.ts';

await runProcess(async () => {
  const config = readReferralsConfig();
  const service = await createReferralsService({ config });
  await service.app.listen({ host: config.HOST, port: config.REFERRALS_PORT });
  return { logger: service.app.log, close: service.close };
});
