import { createLogger, natsBus, runProcess } from '@app/kit';
import { readAuthConfig } from './config.ts';
import { createAuthService } from './service.ts';

/** The auth service as its own process (docker-compose, deploy/): events go through NATS. */
await runProcess(async () => {
  const config = readAuthConfig();
  if (!config.NATS_URL) throw new Error('NATS_URL is required when the auth service runs as its own process');
  const bus = await natsBus({
    url: config.NATS_URL,
    name: 'auth',
    namespace: config.NATS_NAMESPACE,
    logger: createLogger('auth', config.LOG_LEVEL),
  });
  const service = await createAuthService({ config, bus });
  await service.app.listen({ host: config.HOST, port: config.AUTH_PORT });
  return {
    logger: service.app.log,
    async close() {
      await service.close();
      await bus.close();
    },
  };
});
