// Maps a profile frame in the CLI's bundle (apps/hermes/dist/bundle/*.js, apps/hermes/bundle.mjs) back to
// the module it came from. esbuild writes a `// packages/gateway/dist/intake.js` comment (the path from the
// repository root) before each module it joins, so a frame's module is the last such comment at or above
// the line its function starts on. Frames outside a bundle, or above a chunk's first module (esbuild's own
// runtime), keep their URL. Used by profile-summary.ts and profile-gateway.ts's categories: without it most
// of the gateway's time lands on chunk-*.js files and counts as "node internals".
import { readFileSync } from 'node:fs';

export interface SourceFrame {
  /** the module's URL (file:///ROOT/packages/…) or the frame's own when not in a bundle */
  url: string;
  /** lines from the module's start in the bundle (0-based), or the frame's own line */
  line: number;
  /** `chunk-X.js:LINE` (1-based) when the frame was in a bundle */
  bundle?: string;
}

const BUNDLE = /^(file:\/\/.*?)\/apps\/[^/]+\/dist\/bundle\/([^/]+\.m?js)$/;
const MARKER = /^\/\/ ((?:packages|apps|plugins|node_modules)\/\S+)$/;

/** Module starts of one bundle file: [line (0-based), path from the root], in line order. */
export function bundleMarkers(text: string): [number, string][] {
  const out: [number, string][] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = MARKER.exec(lines[i] ?? '');
    if (m?.[1]) out.push([i, m[1]]);
  }
  return out;
}

/**
 * A function from a frame's (url, 0-based line) to its source module. Each bundle file is read once
 * (`read` gets its file:// URL; a file that cannot be read leaves its frames as they are).
 */
export function bundleSources(
  read: (url: string) => string = (url) => readFileSync(new URL(url), 'utf8'),
): (url: string, line: number) => SourceFrame {
  const markers = new Map<string, [number, string][]>();
  return (url, line) => {
    const b = BUNDLE.exec(url);
    if (!b) return { url, line };
    let m = markers.get(url);
    if (!m) {
      try {
        m = bundleMarkers(read(url));
      } catch {
        m = [];
      }
      markers.set(url, m);
    }
    // the last marker at or above `line` (binary search: markers are in line order)
    let lo = 0;
    let hi = m.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((m[mid]?.[0] ?? 0) <= line) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const at = `${b[2]}:${line + 1}`;
    const marker = m[found];
    if (!marker) return { url, line, bundle: at };
    return { url: `${b[1]}/${marker[1]}`, line: line - marker[0] - 1, bundle: at };
  };
}

/** A URL as the summaries print it: from the repository's top folders on, node_modules/ as nm/. */
export function shortUrl(url: string): string {
  return url.replace(/^file:\/\/.*?\/(packages|plugins|apps|node_modules)\//, '$1/').replace(/node_modules\//g, 'nm/');
}
