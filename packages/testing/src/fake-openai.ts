/**
 * An OpenAI-compatible HTTP server for tests, speaking the real wire format of `POST /v1/chat/completions`
 * and `GET /v1/models`, so services are tested through the real `openai` SDK. Replies are scripted per test
 * (a queue, or a function of the request), can be HTTP errors or a hang (for timeout and retry tests), and
 * every request is recorded (so tests can check what went in the system and the user message).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface ChatMessage {
  role: string;
  content: string | Array<{ type: string; text?: string }> | null;
  [key: string]: unknown;
}

/** The body of a chat completion request, as the client sent it. */
export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  response_format?: { type: 'text' | 'json_object' | 'json_schema'; json_schema?: unknown };
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  [key: string]: unknown;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** Parsed JSON body (undefined for GET or an unparseable body). */
  body: ChatCompletionRequest | undefined;
}

export type FakeReply =
  /** A successful completion whose first choice says `content`. */
  | { content: string; finishReason?: 'stop' | 'length' | 'content_filter'; model?: string }
  /** An error answer in OpenAI's error shape; `headers` e.g. { 'retry-after-ms': '10' }. */
  | { status: number; message?: string; type?: string; code?: string | null; headers?: Record<string, string> }
  /** Never answers (the client's timeout fires); the connection is closed when the server closes. */
  | { hang: true };

export type FakeResponder = (request: ChatCompletionRequest, recorded: RecordedRequest) => FakeReply;

export interface FakeOpenAi {
  /** Base URL for the SDK (`OPENAI_BASE_URL`), ending in /v1. */
  url: string;
  /** The key the server accepts as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** Every request received, in order (including refused ones). */
  requests: RecordedRequest[];
  /** Chat completion requests that passed authentication and validation. */
  chats(): ChatCompletionRequest[];
  /** Queues replies, used one per chat request before the default responder. */
  reply(...replies: Array<FakeReply | FakeResponder>): void;
  /** What to answer when the queue is empty (default: 'Product: Not found' lines). */
  respondWith(responder: FakeResponder): void;
  /** Empties the queue and the record, restores the default responder. */
  reset(): void;
  close(): Promise<void>;
}

/** The text of a message, whether sent as a string or as content parts. */
export function messageText(message: ChatMessage | undefined): string {
  if (!message || message.content == null) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => part.text ?? '').join('');
}

const defaultResponder: FakeResponder = () => ({
  content: 'Product: Not found\nCompany: Not found\nDescription: No description available',
});

/** OpenAI counts tokens with tiktoken; about four characters a token is what its docs give as a rule of thumb. */
const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

function errorBody(message: string, type: string, code: string | null, param: string | null = null) {
  return { error: { message, type, param, code } };
}

/**
 * OpenAI's reasoning models (o1, o3, o4-mini, gpt-5...) refuse `max_tokens` and any sampling parameter but
 * the default; the fake does too, for those names and for any listed in `reasoningModels`.
 */
export const REASONING_MODEL = /^(o\d|gpt-5)/i;

/** Why a reasoning model refuses the request, in OpenAI's words and codes; null when it does not. */
function unsupportedByReasoning(
  request: ChatCompletionRequest,
): { message: string; param: string; code: string } | null {
  if (request.max_tokens !== undefined) {
    return {
      message:
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      param: 'max_tokens',
      code: 'unsupported_parameter',
    };
  }
  for (const param of ['temperature', 'top_p', 'presence_penalty', 'frequency_penalty'] as const) {
    const value = request[param];
    const standard = param === 'temperature' || param === 'top_p' ? 1 : 0;
    if (value !== undefined && value !== standard) {
      return {
        message: `Unsupported value: '${param}' does not support ${String(value)} with this model. Only the default (${standard}) value is supported.`,
        param,
        code: 'unsupported_value',
      };
    }
  }
  return null;
}

/** Why a chat request is malformed, in OpenAI's words where they are known; null when it is fine. */
function invalid(body: unknown): { message: string; param: string } | null {
  if (!body || typeof body !== 'object')
    return { message: 'We could not parse the JSON body of your request.', param: 'body' };
  const request = body as Partial<ChatCompletionRequest>;
  if (typeof request.model !== 'string' || !request.model)
    return { message: 'you must provide a model parameter', param: 'model' };
  if (!Array.isArray(request.messages) || request.messages.length === 0)
    return { message: "'messages' must contain at least one message", param: 'messages' };
  for (const [index, message] of request.messages.entries()) {
    if (!message || !['system', 'developer', 'user', 'assistant', 'tool'].includes(message.role)) {
      return { message: `Invalid value for 'messages[${index}].role'`, param: `messages[${index}].role` };
    }
  }
  const format = request.response_format;
  if (format !== undefined && !['text', 'json_object', 'json_schema'].includes(format?.type)) {
    return { message: "Invalid value for 'response_format.type'", param: 'response_format.type' };
  }
  if (request.stream) return { message: 'This fake server does not stream; send stream: false', param: 'stream' };
  return null;
}

export async function startFakeOpenAi(
  options: { apiKey?: string; models?: string[]; reasoningModels?: string[] } = {},
): Promise<FakeOpenAi> {
  const isReasoning = (model: string) => REASONING_MODEL.test(model) || (options.reasoningModels ?? []).includes(model);
  const apiKey = options.apiKey ?? `sk-test-${randomBytes(12).toString('hex')}`;
  const models = options.models ?? ['gpt-4o-mini'];
  const requests: RecordedRequest[] = [];
  const accepted: ChatCompletionRequest[] = [];
  const queue: Array<FakeReply | FakeResponder> = [];
  const hanging = new Set<ServerResponse>();
  let fallback: FakeResponder = defaultResponder;

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, {
      'content-type': 'application/json',
      'x-request-id': `req_${randomBytes(12).toString('hex')}`,
      'openai-processing-ms': '1',
      ...headers,
    });
    res.end(JSON.stringify(body));
  }

  function completion(
    request: ChatCompletionRequest,
    reply: { content: string; finishReason?: string; model?: string },
  ) {
    const prompt = request.messages.map((message) => messageText(message)).join('\n');
    const promptTokens = tokens(prompt);
    const completionTokens = tokens(reply.content);
    return {
      id: `chatcmpl-${randomBytes(12).toString('hex')}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: reply.model ?? request.model,
      system_fingerprint: 'fp_fake',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: reply.content, refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: reply.finishReason ?? 'stop',
        },
      ],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 0,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
      service_tier: 'default',
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    let body: ChatCompletionRequest | undefined;
    try {
      body = raw ? (JSON.parse(raw) as ChatCompletionRequest) : undefined;
    } catch {
      body = undefined;
    }
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path, headers: req.headers, body };
    requests.push(recorded);

    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      const shown = (req.headers.authorization ?? '').replace(/^Bearer\s+/, '');
      return send(
        res,
        401,
        errorBody(
          shown
            ? `Incorrect API key provided: ${shown.slice(0, 3)}****${shown.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`
            : "You didn't provide an API key.",
          'invalid_request_error',
          'invalid_api_key',
        ),
      );
    }

    if (req.method === 'GET' && path === '/v1/models') {
      return send(res, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'system' })),
      });
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      return send(res, 404, errorBody(`Invalid URL (${req.method} ${path})`, 'invalid_request_error', null));
    }
    const problem = invalid(raw ? body : undefined);
    if (problem || !body) {
      return send(
        res,
        400,
        errorBody(problem?.message ?? 'Invalid request', 'invalid_request_error', null, problem?.param ?? null),
      );
    }
    const refused = isReasoning(body.model) ? unsupportedByReasoning(body) : null;
    if (refused) {
      return send(res, 400, errorBody(refused.message, 'invalid_request_error', refused.code, refused.param));
    }
    accepted.push(body);

    const next = queue.shift() ?? fallback;
    const reply = typeof next === 'function' ? next(body, recorded) : next;
    if ('hang' in reply) {
      hanging.add(res);
      res.once('close', () => hanging.delete(res));
      return;
    }
    if ('status' in reply) {
      const type =
        reply.type ??
        (reply.status === 429 ? 'requests' : reply.status >= 500 ? 'server_error' : 'invalid_request_error');
      const message =
        reply.message ??
        (reply.status === 429
          ? 'Rate limit reached'
          : 'The server had an error while processing your request. Sorry about that!');
      return send(res, reply.status, errorBody(message, type, reply.code ?? null), reply.headers);
    }
    return send(res, 200, completion(body, reply));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, errorBody(String(error), 'server_error', null)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    apiKey,
    requests,
    chats: () => [...accepted],
    reply: (...replies) => void queue.push(...replies),
    respondWith(responder) {
      fallback = responder;
    },
    reset() {
      queue.length = 0;
      requests.length = 0;
      accepted.length = 0;
      fallback = defaultResponder;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
