import { createLogger, natsBus, runProcess } from '@app/kit';
import { readProgramsConfig } from './config.ts';
import { createProgramsService } from './service.ts';

/** The programs service as its own process (docker-compose, deploy/): events go through NATS. */
await runProcess(async () => {
  const config = readProgramsConfig();
  if (!config.NATS_URL) throw new Error('NATS_URL is required when the programs service runs as its own process');
  const bus = await natsBus({
    url: config.NATS_URL,
    name: 'programs',
    namespace: config.NATS_NAMESPACE,
    logger: createLogger('programs', config.LOG_LEVEL),
  });
  const service = await createProgramsService({ config, bus });
  await service.app.listen({ host: config.HOST, port: config.PROGRAMS_PORT });
  return {
    logger: service.app.log,
    async close() {
      await service.close();
      await bus.close();
    },
  };
});
