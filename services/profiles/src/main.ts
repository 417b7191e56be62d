import { runProcess } from '@app/kit';
import { createProfilesService, readProfilesConfig } from './service.ts';

await runProcess(async () => {
  const config = readProfilesConfig();
  const service = await createProfilesService({ config });
  await service.app.listen({ host: config.HOST, port: config.PROFILES_PORT });
  return { logger: service.app.log, close: service.close };
});
