import { runProcess } from '@app/kit';
import { createAiService, readAiConfig } from './service.ts';

await runProcess(async () => {
  const config = readAiConfig();
  const service = await createAiService({ config });
  await service.app.listen({ host: config.HOST, port: config.AI_PORT });
  return { logger: service.app.log, close: service.close };
});
