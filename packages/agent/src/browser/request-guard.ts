/**
 * What the browser may load, judged per URL before Chromium asks for it: the page the model
 * navigates to and every request the page makes (context routing). http(s): web_extract's SSRF
 * gate (`vetHost`, security.allow_private_urls); file: only inside the file roots, through the file
 * tools' guard; data:, blob: and about: carry no request. Anything else is refused. The vetting
 * proxy checks every connection again (redirects included), so this is the first of two gates.
 */
import { fileURLToPath } from 'node:url';
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import type { FileGuard } from '../tools/file-guard.js';
import { bareHost, type UrlPolicy, vetHost } from '../web/url-guard.js';

export type Verdict = { ok: true } | { ok: false; reason: string };

/** Schemes the model may navigate to. */
const NAVIGABLE = new Set(['http:', 'https:', 'file:']);
/** Schemes a page may load from without a request leaving Chromium. */
const LOCAL = new Set(['data:', 'blob:', 'about:']);

export interface RequestGuardOptions {
  policy: UrlPolicy;
}

/** Judges one URL for a session whose file guard is `files`. */
export async function judgeUrl(raw: string, files: FileGuard, options: RequestGuardOptions): Promise<Verdict> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: `not a valid absolute URL: ${JSON.stringify(raw.slice(0, 200))}` };
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    try {
      await vetHost(bareHost(url), options.policy);
      return { ok: true };
    } catch (err) {
      // a name that does not resolve here fails at the proxy too, with Chromium's own error
      if (err instanceof HermesError && err.code === ERROR_CODES.WEB_URL_REFUSED)
        return { ok: false, reason: err.message };
      return { ok: true };
    }
  }
  if (url.protocol === 'file:') {
    if (url.host !== '' && url.host !== 'localhost')
      return { ok: false, reason: `file URLs of another host: ${url.href}` };
    const guarded = await files.check(fileURLToPath(url));
    return guarded.ok ? { ok: true } : { ok: false, reason: guarded.error };
  }
  if (LOCAL.has(url.protocol)) return { ok: true };
  return { ok: false, reason: `${url.protocol.replace(/:$/, '')} URLs are not loaded by the browser tool` };
}

/** Judges a URL the model asked to navigate to: http, https or file only, then as judgeUrl. */
export async function judgeNavigation(raw: string, files: FileGuard, options: RequestGuardOptions): Promise<Verdict> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: `not a valid absolute URL: ${JSON.stringify(raw.slice(0, 200))}` };
  }
  if (!NAVIGABLE.has(url.protocol)) {
    return { ok: false, reason: `only http, https and file URLs can be opened, not ${url.protocol.replace(/:$/, '')}` };
  }
  return judgeUrl(url.href, files, options);
}
