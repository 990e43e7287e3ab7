/**
 * The script `read` runs inside the page (plain JavaScript: this package is compiled without the DOM's
 * types): the body's visible text, and the visible fields, buttons and links with a handle for each
 * (a CSS selector by id or name for fields and buttons; buttons and links also by their text).
 */
import { z } from 'zod';

/** What the script answers, checked (the page's own scripts could have changed what it calls). */
const resultSchema = z.object({
  text: z.string(),
  controls: z.array(
    z.object({
      kind: z.enum(['field', 'button', 'link']),
      selector: z.string().nullable(),
      text: z.string(),
      href: z.string().optional(),
    }),
  ),
});

export type PageScriptResult = z.infer<typeof resultSchema>;

/** The script's answer, or an error saying the page's scripts got in the way. */
export function parsePageScript(value: unknown): PageScriptResult {
  const parsed = resultSchema.safeParse(value);
  if (!parsed.success) throw new Error('the page answered the text reader with something else (its scripts interfere)');
  return parsed.data;
}

const SOURCE = `(({ maxControls, textMax }) => {
  const cut = (s) => String(s || '').replace(/\\s+/g, ' ').trim().slice(0, textMax);
  const visible = (el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  const byId = (el) => (el.id ? '#' + CSS.escape(el.id) : null);
  const controls = [];
  for (const el of document.querySelectorAll('input, textarea, select, button, a[href]')) {
    if (controls.length >= maxControls) break;
    if (!visible(el)) continue;
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (tag === 'a') {
      const text = cut(el.innerText);
      if (text) controls.push({ kind: 'link', selector: null, text, href: el.href });
      continue;
    }
    if (tag === 'button' || type === 'submit' || type === 'button' || type === 'reset') {
      const text = cut(el.innerText || el.value);
      if (text || el.id) controls.push({ kind: 'button', selector: byId(el), text });
      continue;
    }
    if (type === 'hidden') continue;
    const name = el.getAttribute('name');
    const selector = byId(el) || (name ? tag + '[name="' + name.replace(/["\\\\]/g, '\\\\$&') + '"]' : null);
    if (selector === null) continue;
    const label = (el.labels && el.labels[0] && el.labels[0].innerText) || el.getAttribute('aria-label') ||
      el.getAttribute('placeholder') || name || '';
    controls.push({ kind: 'field', selector, text: cut(label) });
  }
  return { text: document.body ? document.body.innerText : '', controls };
})`;

/** The expression `page.evaluate` runs: the script applied to its limits. */
export function readPageScript(maxControls: number, textMax: number): string {
  return `${SOURCE}(${JSON.stringify({ maxControls, textMax })})`;
}
