import { servicePrismaConfig } from '@app/kit/prisma-config';

export default servicePrismaConfig('ai');
