// Builds the console and the web chat: one esbuild bundle per page, and the static HTML/CSS beside them.
// Run from the root `build` script after `tsc -b` (so `npm ci` → prepare builds it).
import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const dist = here('./dist/');
mkdirSync(dist, { recursive: true });

await build({
  entryPoints: { console: here('./src/console/main.tsx'), chat: here('./src/chat/main.tsx') },
  outdir: dist,
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
});
for (const f of ['index.html', 'chat.html', 'console.css']) copyFileSync(here(`./static/${f}`), `${dist}${f}`);
