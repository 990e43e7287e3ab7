/** A base URL in config.yaml: http(s) only, the scheme required. */
import * as z from 'zod';

/** An http(s) URL: `127.0.0.1:11434/v1` (no scheme) is refused at once instead of failing every request. */
function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '';
  } catch {
    return false;
  }
}

export const baseUrl = z.string().refine(isHttpUrl, {
  message: 'an http:// or https:// URL (add the scheme, e.g. http://127.0.0.1:11434/v1)',
});
