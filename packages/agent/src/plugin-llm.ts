/** ctx.llm for plugins: one-shot completions on the user's model; structured answers validated with ajv. */
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import type { Ajv } from 'ajv';
import type { ModelClient } from './model-client.js';

export interface LlmOptions {
  system?: string;
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
}

export interface OneShotLlm {
  complete(prompt: string, options?: LlmOptions): Promise<string>;
  completeStructured<T = unknown>(prompt: string, schema: Record<string, unknown>, options?: LlmOptions): Promise<T>;
}

/** Extracts the first JSON value of a model answer (plain, or inside a ``` fence). */
export function extractJson(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  const candidate = (fenced?.[1] ?? text).trim();
  try {
    return JSON.parse(candidate);
  } catch {
    const start = candidate.search(/[[{]/);
    if (start >= 0) return JSON.parse(candidate.slice(start));
    throw new HermesError(ERROR_CODES.MODEL_RESPONSE, 'the model did not answer with JSON');
  }
}

/** Builds ctx.llm over a model client. */
export function createPluginLlm(client: Pick<ModelClient, 'complete'>, model: string, owner: string): OneShotLlm {
  // ajv is loaded (and its instance built) on the first structured call, not at every plugin's start-up
  let ajvReady: Promise<Ajv> | null = null;
  const loadAjv = (): Promise<Ajv> => {
    ajvReady ??= import('ajv').then(({ Ajv }) => new Ajv({ allErrors: true, strict: false }));
    return ajvReady;
  };
  const complete = async (prompt: string, options: LlmOptions = {}): Promise<string> => {
    const step = await client.complete({
      body: {
        model,
        messages: [
          ...(options.system ? [{ role: 'system' as const, content: options.system }] : []),
          { role: 'user' as const, content: prompt },
        ],
        ...(options.maxTokens !== undefined ? { max_tokens: options.maxTokens } : {}),
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      },
      sessionId: `plugin:${owner}`,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return step.content ?? '';
  };
  return {
    complete,
    async completeStructured<T>(prompt: string, schema: Record<string, unknown>, options: LlmOptions = {}): Promise<T> {
      const ajv = await loadAjv();
      const validate = ajv.compile(schema);
      const system = [
        options.system ?? '',
        `Answer with JSON only, no prose, matching this JSON Schema:\n${JSON.stringify(schema)}`,
      ]
        .filter(Boolean)
        .join('\n\n');
      const text = await complete(prompt, { ...options, system });
      let value: unknown;
      try {
        value = extractJson(text);
      } catch {
        throw new HermesError(ERROR_CODES.MODEL_RESPONSE, `the model's answer is not JSON: ${text.slice(0, 120)}`);
      }
      if (!validate(value)) {
        throw new HermesError(
          ERROR_CODES.MODEL_RESPONSE,
          `the model's JSON does not match the schema: ${ajv.errorsText(validate.errors)}`,
        );
      }
      return value as T;
    },
  };
}
