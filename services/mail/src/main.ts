import { createLogger, natsBus, runProcess } from '@app/kit';
import { readMailConfig } from './config.ts';
import { createMailService } from './service.ts';

/** The mail service as its own process: consumes events from NATS, sends through SMTP_URL. */
await runProcess(async () => {
  const config = readMailConfig();
  if (!config.NATS_URL) throw new Error('NATS_URL is required when the mail service runs as its own process');
  const bus = await natsBus({
    url: config.NATS_URL,
    name: 'mail',
    namespace: config.NATS_NAMESPACE,
    logger: createLogger('mail', config.LOG_LEVEL),
  });
  const service = await createMailService({ config, bus });
  await service.app.listen({ host: config.HOST, port: config.MAIL_PORT });
  return {
    logger: service.app.log,
    async close() {
      // Stop consuming first so no event is half-handled, then the HTTP side.
      await bus.close();
      await service.close();
    },
  };
});
