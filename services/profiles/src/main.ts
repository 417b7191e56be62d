import { createLogger, natsBus, runProcess } from '@app/kit';
import { readProfilesConfig } from './config.ts';
import { createProfilesService } from './service.ts';

/** The profiles service as its own process (docker-compose, deploy/): events go through NATS. */
await runProcess(async () => {
  const config = readProfilesConfig();
  if (!config.NATS_URL) throw new Error('NATS_URL is required when the profiles service runs as its own process');
  const bus = await natsBus({
    url: config.NATS_URL,
    name: 'profiles',
    namespace: config.NATS_NAMESPACE,
    logger: createLogger('profiles', config.LOG_LEVEL),
  });
  const service = await createProfilesService({ config, bus });
  await service.app.listen({ host: config.HOST, port: config.PROFILES_PORT });
  return {
    logger: service.app.log,
    async close() {
      await service.close();
      await bus.close();
    },
  };
});
