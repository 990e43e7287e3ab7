// JSON calls to the gateway: every POST carries the session's CSRF token in `x-hermes-csrf`.

let csrf: string | null = null;

export function setCsrf(token: string | null): void {
  csrf = token;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function parse<T>(res: Response, what: string): Promise<T> {
  const body = (await res.json().catch(() => ({}))) as { error?: string };
  if (!res.ok) throw new ApiError(res.status, `${what}: ${body.error ?? res.statusText} (${res.status})`);
  return body as T;
}

export async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  return parse<T>(res, `GET ${path}`);
}

/** the session's CSRF header (none before a login: the login POST is the one that has no session yet) */
function csrfHeader(): Record<string, string> {
  return csrf === null ? {} : { 'x-hermes-csrf': csrf };
}

export async function postJson<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', ...csrfHeader() },
    body: JSON.stringify(body ?? {}),
  });
  return parse<T>(res, `POST ${path}`);
}

export async function postForm<T>(path: string, form: FormData): Promise<T> {
  const res = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: csrfHeader(),
    body: form,
  });
  return parse<T>(res, `POST ${path}`);
}
