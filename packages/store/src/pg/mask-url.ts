/**
 * A database URL fit for logs and output: the password replaced by `***` (also inside query
 * parameters such as `?password=`). A string that is not a URL is masked whole after its scheme.
 */
export function maskDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0];
    return scheme ? `${scheme}***` : '***';
  }
  if (parsed.password !== '') parsed.password = '***';
  for (const key of [...parsed.searchParams.keys()]) {
    if (/pass|secret|key|token/i.test(key)) parsed.searchParams.set(key, '***');
  }
  return parsed.toString().replaceAll('%2A%2A%2A', '***');
}

/** True for a `postgres://` or `postgresql://` URL. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url.trim());
}
