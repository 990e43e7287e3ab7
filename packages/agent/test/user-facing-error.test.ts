import { userFacingError } from '@hermes/agent';
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';

/** What the model SDK's APIError carries: an HTTP status. */
function httpError(status: number): HermesError {
  const cause = Object.assign(new Error(`HTTP ${status} from http://user:pw@10.0.0.5:8000/v1`), { status });
  return new HermesError(
    ERROR_CODES.MODEL_HTTP,
    `model endpoint http://user:pw@10.0.0.5:8000/v1 answered HTTP ${status}: no`,
    {
      cause,
    },
  );
}

describe('userFacingError', () => {
  it.each([
    [
      new HermesError(
        ERROR_CODES.MODEL_UNREACHABLE,
        'cannot reach model endpoint http://user:pass@127.0.0.1:9/v1: ECONNREFUSED',
      ),
      'HERMES_MODEL_UNREACHABLE',
      'The model server could not be reached (HERMES_MODEL_UNREACHABLE).',
    ],
    [httpError(401), 'HERMES_MODEL_AUTH', 'The model server refused our credentials, HTTP 401 (HERMES_MODEL_AUTH).'],
    [httpError(403), 'HERMES_MODEL_AUTH', 'The model server refused our credentials, HTTP 403 (HERMES_MODEL_AUTH).'],
    [
      httpError(429),
      'HERMES_MODEL_RATE_LIMITED',
      'The model server is rate limiting requests, try again in a moment, HTTP 429 (HERMES_MODEL_RATE_LIMITED).',
    ],
    [
      new HermesError(ERROR_CODES.MODEL_TIMEOUT, 'model request to http://user:pw@10.0.0.5/v1 timed out', {
        detail: 'no answer within 50 s, 2 attempts in 55 s',
      }),
      'HERMES_MODEL_TIMEOUT',
      'The model server did not answer in time: no answer within 50 s, 2 attempts in 55 s (HERMES_MODEL_TIMEOUT).',
    ],
    [
      new HermesError(ERROR_CODES.MODEL_HTTP, 'model endpoint http://h/v1 answered HTTP 404: gone', {
        cause: Object.assign(new Error('404'), { status: 404 }),
        detail: "The model 'gpt-9' does not exist.",
      }),
      'HERMES_MODEL_HTTP',
      "The model server answered with an error, HTTP 404: The model 'gpt-9' does not exist (HERMES_MODEL_HTTP).",
    ],
    [httpError(500), 'HERMES_MODEL_HTTP', 'The model server answered with an error, HTTP 500 (HERMES_MODEL_HTTP).'],
    [
      new HermesError(ERROR_CODES.MODEL_RESPONSE, 'model returned no choices'),
      'HERMES_MODEL_RESPONSE',
      'The model server sent an answer that could not be used (HERMES_MODEL_RESPONSE).',
    ],
  ])('%s', (error, code, message) => {
    const facing = userFacingError(error);
    expect(facing.code).toBe(code);
    expect(facing.message).toBe(message);
  });

  it('the detail is the outermost one down the cause chain, on one line, cut at 200 characters', () => {
    const inner = new HermesError(ERROR_CODES.MODEL_UNREACHABLE, 'x', { detail: 'connection refused' });
    const outer = new HermesError(ERROR_CODES.MODEL_UNREACHABLE, 'gave up', {
      cause: inner,
      detail: 'connection refused,\n4 attempts in 7 s',
    });
    expect(userFacingError(outer).message).toBe(
      'The model server could not be reached: connection refused, 4 attempts in 7 s (HERMES_MODEL_UNREACHABLE).',
    );
    const long = new HermesError(ERROR_CODES.MODEL_HTTP, 'x', { detail: 'y'.repeat(500) });
    expect(userFacingError(long).message).toMatch(/: y{199}… \(HERMES_MODEL_HTTP\)\.$/);
  });

  it('a JavaScript internal error is INTERNAL, not blamed on the model, even wrapped as a model error', () => {
    const overflow = new RangeError('Maximum call stack size exceeded');
    for (const error of [
      overflow,
      new HermesError(ERROR_CODES.INTERNAL, overflow.message, { cause: overflow }),
      new HermesError(ERROR_CODES.MODEL_RESPONSE, `bad response from model endpoint http://h/v1: ${overflow.message}`, {
        cause: overflow,
      }),
      new TypeError("Cannot read properties of undefined (reading 'x')"),
      'a thrown string',
    ]) {
      const facing = userFacingError(error);
      expect(facing.code).toBe('HERMES_INTERNAL');
      expect(facing.message).toBe('Something went wrong inside Hermes (HERMES_INTERNAL).');
    }
  });

  it('never repeats the detail: no URL, credentials, endpoint words or stack', () => {
    for (const status of [400, 401, 429, 500, 502]) {
      const { message } = userFacingError(httpError(status));
      expect(message).not.toMatch(/http:|user|pw|10\.0\.0\.5|no$/);
    }
  });
});
