import { createLogger, natsBus, runProcess } from '@app/kit';
import { readAiConfig } from './config.ts';
import { createAiService } from './service.ts';

/** The ai service as its own process (docker-compose, deploy/): events go through NATS. */
await runProcess(async () => {
  const config = readAiConfig();
  if (!config.NATS_URL) throw new Error('NATS_URL is required when the ai service runs as its own process');
  const bus = await natsBus({
    url: config.NATS_URL,
    name: 'ai',
    namespace: config.NATS_NAMESPACE,
    logger: createLogger('ai', config.LOG_LEVEL),
  });
  const service = await createAiService({ config, bus });
  await service.app.listen({ host: config.HOST, port: config.AI_PORT });
  return {
    logger: service.app.log,
    async close() {
      // Stop consuming first so no event is half-handled, then the HTTP side and the outbox relay.
      await bus.close();
      await service.close();
    },
  };
});
