import { ERROR_CODES, HermesError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { isContextLengthError } from '../../src/index.js';

const http400 = (detail: string, cause?: object) =>
  new HermesError(ERROR_CODES.MODEL_HTTP, `model endpoint x answered HTTP 400: ${detail}`, { cause });

describe('isContextLengthError', () => {
  it("matches OpenAI's code and the common wordings of a 400", () => {
    expect(isContextLengthError(http400('bad', { status: 400, code: 'context_length_exceeded' }))).toBe(true);
    expect(isContextLengthError(http400("This model's maximum context length is 8192 tokens"))).toBe(true);
    expect(isContextLengthError(http400('prompt is too long: 210000 tokens > 200000 maximum'))).toBe(true);
    expect(isContextLengthError(http400('the request exceeds the context window'))).toBe(true);
  });

  it('not for another 400, nor for a non-400 with the words', () => {
    expect(isContextLengthError(http400('image input is not supported'))).toBe(false);
    const e500 = new HermesError(ERROR_CODES.MODEL_HTTP, 'model endpoint x answered HTTP 500: maximum context length', {
      cause: { status: 500 },
    });
    expect(isContextLengthError(e500)).toBe(false);
  });
});
