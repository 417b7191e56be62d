import { createLogger, natsBus, runProcess } from '@app/kit';
import { readReferralsConfig } from './config.ts';
import { createReferralsService } from './service.ts';

/** The referrals service as its own process (docker-compose, deploy/): events go through NATS. */
await runProcess(async () => {
  const config = readReferralsConfig();
  if (!config.NATS_URL) throw new Error('NATS_URL is required when the referrals service runs as its own process');
  const bus = await natsBus({
    url: config.NATS_URL,
    name: 'referrals',
    namespace: config.NATS_NAMESPACE,
    logger: createLogger('referrals', config.LOG_LEVEL),
  });
  const service = await createReferralsService({ config, bus });
  await service.app.listen({ host: config.HOST, port: config.REFERRALS_PORT });
  return {
    logger: service.app.log,
    async close() {
      await service.close();
      await bus.close();
    },
  };
});
