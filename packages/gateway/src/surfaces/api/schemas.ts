/**
 * JSON schemas of the API platform's request bodies (Fastify `schema.body`), checked by the
 * gateway's own Ajv (no type coercion: `"stream": "true"` is refused, not turned into `true`).
 * Unknown keys are allowed (clients send many); the keys Hermes reads, and the common ones it
 * ignores, must have OpenAI's types. A failure goes through the error handler as a 400
 * `invalid_request` with `param` naming the field (see ../http/validation-error.ts).
 */
import { createRequire } from 'node:module';
import type { Ajv, ValidateFunction } from 'ajv';
import type { FastifySchema, FastifySchemaCompiler, preValidationHookHandler } from 'fastify';

const nullable = (type: string | string[]) => ({ type: [...(Array.isArray(type) ? type : [type]), 'null'] });

/** A text content part (`{type: "text", text}`); the Responses API's `input_text` / `output_text` too. */
const textPart = {
  type: 'object',
  required: ['type', 'text'],
  description: 'expected a text part {type: "text", text} (only text input is supported)',
  properties: {
    type: { type: 'string', enum: ['text', 'input_text', 'output_text'] },
    text: { type: 'string' },
  },
} as const;

const content = {
  description: 'expected a string or a list of text parts [{type: "text", text}]',
  anyOf: [{ type: 'string' }, { type: 'null' }, { type: 'array', items: textPart }],
} as const;

const chatMessage = {
  type: 'object',
  required: ['role'],
  properties: {
    role: { type: 'string', enum: ['system', 'user', 'assistant', 'tool'] },
    content,
    name: { type: 'string' },
    tool_calls: { type: 'array', items: { type: 'object' } },
    tool_call_id: { type: 'string' },
  },
} as const;

/** Keys both endpoints share (sampling settings Hermes accepts and leaves to its configured model). */
const common = {
  model: { type: 'string' },
  stream: nullable('boolean'),
  user: { type: 'string' },
  temperature: { ...nullable('number'), minimum: 0, maximum: 2 },
  top_p: { ...nullable('number'), minimum: 0, maximum: 1 },
  tools: { type: 'array', items: { type: 'object', required: ['type'], properties: { type: { type: 'string' } } } },
  tool_choice: nullable(['string', 'object']),
  parallel_tool_calls: nullable('boolean'),
  metadata: nullable('object'),
} as const;

/** `POST /v1/chat/completions`. */
export const chatCompletionsBodySchema = {
  type: 'object',
  required: ['messages'],
  properties: {
    ...common,
    messages: { type: 'array', minItems: 1, items: chatMessage },
    stream_options: { ...nullable('object'), properties: { include_usage: { type: 'boolean' } } },
    max_tokens: { ...nullable('integer'), minimum: 1 },
    max_completion_tokens: { ...nullable('integer'), minimum: 1 },
    n: { ...nullable('integer'), minimum: 1, maximum: 1 },
    stop: { anyOf: [{ type: 'string' }, { type: 'null' }, { type: 'array', items: { type: 'string' } }] },
  },
} as const;

const inputItem = {
  type: 'object',
  required: ['role', 'content'],
  description: 'expected a message item {role, content} (function call items are not supported)',
  properties: {
    type: { type: 'string', enum: ['message'] },
    role: { type: 'string', enum: ['user', 'assistant', 'system', 'developer'] },
    content: {
      description: 'expected a string or a list of text parts [{type: "input_text", text}]',
      anyOf: [{ type: 'string' }, { type: 'array', items: textPart }],
    },
  },
} as const;

/** `POST /v1/responses`. */
export const responsesBodySchema = {
  type: 'object',
  required: ['input'],
  properties: {
    ...common,
    input: {
      description: 'expected a string or a non-empty list of message items {role, content}',
      anyOf: [
        { type: 'string', minLength: 1 },
        { type: 'array', minItems: 1, items: inputItem },
      ],
    },
    instructions: nullable('string'),
    previous_response_id: nullable('string'),
    store: nullable('boolean'),
    max_output_tokens: { ...nullable('integer'), minimum: 1 },
  },
} as const;

// ajv (CommonJS) is required on first use, not at start-up: it costs start-up time the gateway
// does not need until the first API request (apps/hermes/test/lazy-modules.test.ts)
const requireCjs = createRequire(import.meta.url);
let ajv: Ajv | undefined;

function gatewayAjv(): Ajv {
  if (ajv === undefined) {
    const { Ajv: AjvClass } = requireCjs('ajv') as typeof import('ajv');
    ajv = new AjvClass({ allErrors: false, coerceTypes: false, useDefaults: false, strict: false, verbose: true });
  }
  return ajv;
}

/** Loads the validator now (called once the gateway listens, so the first request does not wait). */
export function warmSchemaValidator(): void {
  gatewayAjv();
}

type LazyValidate = ((data: unknown) => boolean) & { errors?: ValidateFunction['errors'] };

/** Compiles a route's schema with the gateway's Ajv on its first use (no coercion, no defaults, no removal). */
export const strictValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema }) => {
  let compiled: ValidateFunction | undefined;
  const validate: LazyValidate = (data) => {
    compiled ??= gatewayAjv().compile(schema as object);
    const ok = compiled(data);
    // Fastify reads the errors off the function it was given, as from Ajv's own
    validate.errors = compiled.errors;
    return ok;
  };
  return validate;
};

/** The route options that validate a body against `body`: spread them into the route's options. */
export function bodySchema(
  body: object,
  check?: (body: unknown) => { message: string; param: string } | null,
): {
  schema: FastifySchema;
  validatorCompiler: FastifySchemaCompiler<unknown>;
  preValidation: preValidationHookHandler[];
} {
  const checks = [jsonOnly];
  if (check) checks.push(namedCheck(check));
  return { schema: { body }, validatorCompiler: strictValidatorCompiler, preValidation: checks };
}

/** A check the schema's own message would say too vaguely, answered 400 with its field named. */
function namedCheck(check: (body: unknown) => { message: string; param: string } | null): preValidationHookHandler {
  return (request, reply, done) => {
    const problem = check(request.body);
    if (problem === null) return done();
    void reply
      .code(400)
      .type('application/json; charset=utf-8')
      .send({ error: { message: problem.message, type: 'invalid_request_error', code: null, param: problem.param } });
  };
}

/** The first `input` item of a Responses body that is not a message (a function_call_output...), named. */
export function foreignResponsesItem(body: unknown): { message: string; param: string } | null {
  const input = (body as { input?: unknown } | null)?.input;
  if (!Array.isArray(input)) return null;
  for (const [i, item] of input.entries()) {
    const type = (item as { type?: unknown } | null)?.type;
    if (typeof type === 'string' && type !== 'message') {
      return {
        message: `input[${i}]: a ${type} item is not supported: send message items {role, content} (the gateway runs its own tools; client-side function calls are not accepted)`,
        param: `input[${i}].type`,
      };
    }
  }
  return null;
}

/** `application/json` or a `+json` type, parameters aside. */
export function isJsonType(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/**
 * A body that is not JSON is answered 415 before it is validated (without a content-type Fastify
 * leaves the body empty, and text/plain arrives as a string: either would read as a wrong field).
 */
const jsonOnly: preValidationHookHandler = (request, _reply, done) => {
  if (isJsonType(request.headers['content-type'])) return done();
  // answered by the error handler, which names the Content-Type sent (http/api-error.ts)
  const err = new Error('unsupported Content-Type') as Error & { statusCode: number; code: string };
  err.statusCode = 415;
  err.code = 'FST_ERR_CTP_INVALID_MEDIA_TYPE';
  done(err);
};

/** Text parts joined into one string (content already checked by the schema); a string is kept. */
export function contentText(value: unknown): string | null {
  if (typeof value === 'string' || value === null || value === undefined) return (value as string | null) ?? null;
  if (!Array.isArray(value)) return null;
  return value.map((part) => (part as { text?: unknown }).text).join('');
}

/** Messages whose list-of-text-parts content is joined into a string (clients send either). */
export function withTextContent(messages: unknown): unknown {
  if (!Array.isArray(messages)) return messages;
  return messages.map((m) =>
    m !== null && typeof m === 'object' && Array.isArray((m as { content?: unknown }).content)
      ? { ...m, content: contentText((m as { content: unknown }).content) }
      : m,
  );
}
