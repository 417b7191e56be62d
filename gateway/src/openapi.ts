import { apiRoutes, type ApiRoute } from '@app/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
};

function operation(route: ApiRoute) {
  const parameters: unknown[] = [];
  if (route.query) {
    const schema = jsonSchema(route.query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      parameters.push({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: property });
    }
  }
  for (const match of route.path.matchAll(/\{(\w+)\}/g)) {
    parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
  }
  return {
    summary: route.summary,
    tags: [route.service],
    ...(route.auth === 'required' ? { security: [{ session: [] }] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } },
        }
      : {}),
    responses: Object.fromEntries(
      Object.entries(route.responses).map(([status, response]) => [
        status,
        {
          description: response.description,
          ...(response.schema
            ? { content: { 'application/json': { schema: jsonSchema(response.schema, 'output') } } }
            : {}),
        },
      ]),
    ),
  };
}

/** OpenAPI 3.1, generated from the same zod contracts the services validate with. */
export function openApiDocument(publicUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of apiRoutes) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Referral platform API',
      version: '1.0.0',
      description:
        'The public API behind the web app. Sign in with POST /api/login; the session cookie `sid` authenticates later calls. ' +
        'State-changing calls from a browser must come from the app\'s own origin. Every error answers `{ "message": string }`.',
    },
    servers: [{ url: publicUrl }],
    components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sid' } } },
    paths,
  };
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

/** A readable page of the same document; plain HTML, so it needs no script under the app's CSP. */
function docsPage(document: ReturnType<typeof openApiDocument>): string {
  const sections = Object.entries(document.paths)
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => {
        const o = op as {
          summary: string;
          security?: unknown;
          requestBody?: unknown;
          parameters?: unknown;
          responses: unknown;
        };
        const block = (title: string, value: unknown) =>
          value
            ? `<details><summary>${title}</summary><pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre></details>`
            : '';
        return `<section><h2><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h2>
<p>${escapeHtml(o.summary)}${o.security ? ' <em>(requires a session)</em>' : ''}</p>
${block('Parameters', o.parameters)}${block('Request body', o.requestBody)}${block('Responses', o.responses)}</section>`;
      }),
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:900px;margin:0 auto;padding:24px;color:#0f172a}
section{border:1px solid #e2e8f0;border-radius:8px;padding:12px 16px;margin:12px 0}h2{font-size:16px;margin:0}
.m{display:inline-block;min-width:56px;padding:2px 6px;border-radius:4px;color:#fff;font-size:12px;text-align:center}
.get{background:#2563eb}.post{background:#16a34a}.put,.patch{background:#d97706}.delete{background:#dc2626}
pre{background:#f8fafc;padding:8px;overflow:auto;font-size:12px}</style></head><body>
<h1>${escapeHtml(document.info.title)}</h1><p>${escapeHtml(document.info.description)}</p>
<p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a></p>
${sections}</body></html>`;
}

export function openApiRoutes(app: FastifyInstance, publicUrl: string) {
  const document = openApiDocument(publicUrl);
  const page = docsPage(document);
  app.get('/api/openapi.json', async () => document);
  app.get('/api/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
}
