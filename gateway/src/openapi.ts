import * as contracts from '@app/contracts';
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

type Json = Record<string, unknown>;

/**
 * The answers' schemas as named components (`#/components/schemas/Referral`), each written once and referred
 * to: the contracts' exported schemas by their export names, an operation's unexported answer as
 * `<OperationId>Response`. Inline, every operation repeated the referral and its money, ~1.5 MB in all.
 * Request bodies and query parameters stay inline (each is one operation's own, and small).
 */
function answerComponents() {
  const registry = z.registry<{ id: string }>();
  const names = new Map<z.ZodType, string>();
  const name = (schema: z.ZodType, id: string) => {
    if (names.has(schema)) return;
    names.set(schema, id);
    registry.add(schema, { id });
  };
  for (const [id, value] of Object.entries(contracts))
    if (value instanceof z.ZodType && /^[A-Z]/.test(id)) name(value, id);
  for (const op of operationList)
    if (op.response.schema) name(op.response.schema, `${op.id[0]!.toUpperCase()}${op.id.slice(1)}Response`);
  const { schemas } = z.toJSONSchema(registry, {
    io: 'output',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Json> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return {
    ref: (schema: z.ZodType) => ({ $ref: `#/components/schemas/${names.get(schema)!}` }),
    /** The components the document refers to, directly or through another component; the others left out. */
    used(document: unknown): Record<string, Json> {
      const used = new Set<string>();
      const visit = (value: unknown) => {
        if (Array.isArray(value)) return value.forEach(visit);
        if (!value || typeof value !== 'object') return;
        for (const [key, inner] of Object.entries(value)) {
          const id =
            key === '$ref' && typeof inner === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(inner)?.[1] : null;
          if (id && !used.has(id) && schemas[id]) {
            used.add(id);
            visit(schemas[id]);
          } else visit(inner);
        }
      };
      visit(document);
      return Object.fromEntries([...used].sort().map((id) => [id, schemas[id]!]));
    },
  };
}

type Components = ReturnType<typeof answerComponents>;

/** The error answers of an operation, grouped by status, each listing its codes. */
function errorResponses(op: OperationSpec, components: Components) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorsOf(op))
    byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
  const schema = components.ref(ErrorResponse);
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

function operation(id: string, op: OperationSpec, components: Components): Record<string, unknown> {
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
    ? { 'application/json': { schema: components.ref(op.response.schema) } }
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
      ...errorResponses(op, components),
    },
  };
}

/** OpenAPI 3.1, generated from the same zod contracts the services validate with. */
export function openApiDocument(publicUrl: string) {
  const components = answerComponents();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operationList) {
    if (op.access === 'internal' || op.access === 'dev') continue;
    paths[op.path] = { ...paths[op.path], [op.method.toLowerCase()]: operation(op.id, op, components) };
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
    components: {
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sid' } },
      schemas: components.used(paths),
    },
    paths,
  };
}

/** A readable page of the same document; plain HTML, so it needs no script under the app's CSP. */
function docsPage(document: ReturnType<typeof openApiDocument>): string {
  // JSON shown as text, each reference to a schema a link to it (the Schemas part at the end).
  const json = (value: unknown) =>
    escapeHtml(JSON.stringify(value, null, 2)).replace(
      /#\/components\/schemas\/(\w+)/g,
      (ref, name: string) => `<a href="#schema-${name}">${ref}</a>`,
    );
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
          value ? `<details><summary>${title}</summary><pre>${json(value)}</pre></details>` : '';
        return `<section><h2><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h2>
<p>${escapeHtml(o.summary)}${o.security ? ' <em>(requires a session)</em>' : ''}</p>
${block('Parameters', o.parameters)}${block('Request body', o.requestBody)}${block('Responses', o.responses)}</section>`;
      }),
    )
    .join('\n');
  const schemas = Object.entries(document.components.schemas)
    .map(
      ([name, schema]) =>
        `<section id="schema-${name}"><h2><code>${name}</code></h2><details><summary>Schema</summary><pre>${json(schema)}</pre></details></section>`,
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
<p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a>. The answers' <a href="#schemas">schemas</a> are at the end.</p>
${sections}
<h1 id="schemas">Schemas</h1>
${schemas}</body></html>`;
}

/** The document and its page; `pageHeaders`: the docs page is a page (its inline styles), not an API answer. */
export function openApiRoutes(app: FastifyInstance, publicUrl: string, pageHeaders: Record<string, string>) {
  const document = openApiDocument(publicUrl);
  // Serialized once, compressed once (bench/README.md, "Compression").
  app.get('/api/openapi.json', fixedAnswer(JSON.stringify(document), 'application/json; charset=utf-8'));
  const page = fixedAnswer(docsPage(document), 'text/html; charset=utf-8');
  app.get('/api/docs', (request, reply) => page(request, reply.headers(pageHeaders)));
}
