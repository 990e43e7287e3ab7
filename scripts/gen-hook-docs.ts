// Regenerates the hook reference section of docs/hooks.md from the hook table: npm run docs:hooks
import { readFileSync, writeFileSync } from 'node:fs';
import { HOOK_REFERENCE_BEGIN, HOOK_REFERENCE_END, hookReferenceMarkdown } from '../packages/plugins/src/index.js';

const file = new URL('../docs/hooks.md', import.meta.url);
const text = readFileSync(file, 'utf8');
const start = text.indexOf(HOOK_REFERENCE_BEGIN);
const end = text.indexOf(HOOK_REFERENCE_END);
if (start < 0 || end < start) throw new Error('docs/hooks.md lacks the hook-reference markers');
const next = `${text.slice(0, start + HOOK_REFERENCE_BEGIN.length)}\n${hookReferenceMarkdown()}\n${text.slice(end)}`;
writeFileSync(file, next);
console.log('docs/hooks.md: hook reference regenerated');
