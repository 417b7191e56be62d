import { SearchRequest } from '@app/contracts';
import { parse } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import type { ProductSearch } from './search.ts';

export function searchRoutes(app: FastifyInstance, search: ProductSearch) {
  app.post('/api/search', { preHandler: app.requireUser }, async (request) => {
    const { query } = parse(SearchRequest, request.body);
    return search.answer(query, request.log);
  });
}
