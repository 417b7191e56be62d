import { ERRORS, ErrorResponse, errorsOf, operationList, type ErrorCode, type OperationSpec } from '@app/contracts';
import { escapeHtml } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import { fixedAnswer } from './compression.ts';
import { z } from 'zod';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
};

/** The error answers of an operation, grouped by status, each listing its codes. */
function errorResponses(op: OperationSpec) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorsOf(op))
    byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
  const schema = jsonSchema(ErrorResponse, 'output');
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      status,
      {
        description: codes.map((code) => `\`${code}\`: ${ERRORS[code].message}`).join('; '),
        content: { 'application/json': { schema } },
      },
    ]),
  );
}

function operation(id: string, op: OperationSpec): Record<string, unknown> {
  const parameters: unknown[] = [];
  if (op.query) {
    const schema = jsonSchema(op.query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      parameters.push({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: property });
    }
  }
  for (const match of op.path.matchAll(/\{(\w+)\}/g)) {
    parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
  }
  const signedIn = op.access === 'user' || op.access === 'verified' || op.access === 'admin';
  const requestBody =
    op.bodyKind === 'upload'
      ? {
          required: true,
          content: {
            'multipart/form-data': {
              schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } },
            },
          },
        }
      : op.body
        ? { required: true, content: { 'application/json': { schema: jsonSchema(op.body, 'input') } } }
        : undefined;
  const success = op.response.schema
    ? { 'application/json': { schema: jsonSchema(op.response.schema, 'output') } }
    : op.response.contentType
      ? { [op.response.contentType]: { schema: { type: 'string' } } }
      : undefined;
  return {
    operationId: id,
    summary: op.summary,
    tags: [op.service],
    ...(signedIn ? { security: [{ session: [] }] } : {}),
    ...(op.access === 'verified' ? { description: 'Requires a verified email address.' } : {}),
    ...(op.access === 'admin' ? { description: 'Administrators only.' } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      [op.response.status]: { description: op.response.description, ...(success ? { content: success } : {}) },
      ...errorResponses(op),
    },
  };
}

/** OpenAPI 3.1, generated from the same zod contracts the services validate with. */
export function openApiDocument(publicUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operationList) {
    if (op.access === 'internal' || op.access === 'dev') continue;
    paths[op.path] = { ...paths[op.path], [op.method.toLowerCase()]: operation(op.id, op) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Referral platform API',
      version: '1.0.0',
      description:
        'The public API behind the web app. Sign in with POST /api/login; the session cookie `sid` authenticates later calls. ' +
        'State-changing calls from a browser must come from the app\'s own origin. Every error answers `{ "message": string, "code": string }`: branch on the code, show the message.',
    },
    servers: [{ url: publicUrl }],
    components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sid' } } },
    paths,
  };
}

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
  // Serialized once, compressed once: the document is ~1.5 MB of JSON (each operation's schemas inline).
  app.get('/api/openapi.json', fixedAnswer(JSON.stringify(document), 'application/json; charset=utf-8'));
  app.get('/api/docs', fixedAnswer(docsPage(document), 'text/html; charset=utf-8'));
}
