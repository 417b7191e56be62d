import { runProcess } from '@app/kit';
import { createProgramsService, readProgramsConfig } from './service.ts';

await runProcess(async () => {
  const config = readProgramsConfig();
  const service = await createProgramsService({ config });
  await service.app.listen({ host: config.HOST, port: config.PROGRAMS_PORT });
  return { logger: service.app.log, close: service.close };
});
