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
    [httpError(401), 'HERMES_MODEL_AUTH', 'The model server refused our credentials (HERMES_MODEL_AUTH).'],
    [httpError(403), 'HERMES_MODEL_AUTH', 'The model server refused our credentials (HERMES_MODEL_AUTH).'],
    [
      httpError(429),
      'HERMES_MODEL_RATE_LIMITED',
      'The model server is busy (rate limited); please try again in a moment (HERMES_MODEL_RATE_LIMITED).',
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
