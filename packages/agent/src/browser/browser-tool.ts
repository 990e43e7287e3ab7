/**
 * The `browser` tool `{action, url?, selector?, text?, value?}` (toolset `browser`, opt-in): a
 * headless Chromium page per session (browser-pool.ts) that the model opens, reads as text, fills,
 * clicks and photographs. Every URL goes through web_extract's SSRF gate and the file roots
 * (request-guard.ts, vetting-proxy.ts). A screenshot is saved in the user's media folder and shown
 * to the model as an image (ToolContext.attachImage). Failures are `{success: false, error}`.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, type ErrorCode, type ToolContext, type ToolDefinition, type ToolSchema } from '@hermes/protocol';
import { optionalString, parseArgs, requiredString, ToolArgumentError } from '../tools/tool-args.js';
import type { UrlPolicy } from '../web/url-guard.js';
import { type BrowserPool, type BrowserSession, BrowserUnavailableError } from './browser-pool.js';
import { clickOn, describeNavigationError, fillIn, openUrl, readPage, screenshotOf } from './page-actions.js';
import { judgeNavigation } from './request-guard.js';

export const BROWSER_TOOL = 'browser';
export const BROWSER_ACTIONS = ['navigate', 'read', 'click', 'fill', 'screenshot', 'close'] as const;
export type BrowserAction = (typeof BROWSER_ACTIONS)[number];
/** Refusals named in one result. */
const BLOCKED_SHOWN = 5;

export interface BrowserToolOptions {
  pool: BrowserPool;
  /** web_extract's policy, for the URL the model navigates to (the pool's routing and proxy have it too) */
  policy: UrlPolicy;
  /** characters of page text handed to the model (web.max_content_chars) */
  maxTextChars: number;
  /** where the screenshots of the turn's user (owner key; undefined: no user) are saved */
  screenshotDir(owner: string | undefined): string;
  /** tools.browser.timeout_s, for messages */
  timeoutS: number;
}

const SCHEMA: ToolSchema = {
  name: BROWSER_TOOL,
  description:
    'Use a headless web browser, one page per conversation kept between calls. action "navigate" opens a url; ' +
    '"read" returns the page as text with its fields, buttons and links; "fill" types value into the field ' +
    'matching selector; "click" clicks the element matching selector, or else the one showing text; ' +
    '"screenshot" shows you the page as an image; "close" closes the page. Returns JSON {success, url, title, ...} ' +
    'or {success: false, error}.',
  parameters: {
    type: 'object',
    properties: {
      action: { type: 'string', enum: [...BROWSER_ACTIONS], description: 'what to do' },
      url: {
        type: 'string',
        description: 'navigate: an absolute http(s) URL, or a file:// URL inside the allowed folders',
      },
      selector: {
        type: 'string',
        description: 'fill, click: a CSS selector such as #email or input[name="q"] (read lists them)',
      },
      text: { type: 'string', description: 'click: the visible text of the button or link, when no selector' },
      value: { type: 'string', description: 'fill: the text to put in the field' },
    },
    required: ['action'],
  },
};

type Args =
  | { action: 'navigate'; url: string }
  | { action: 'read' | 'screenshot' | 'close' }
  | { action: 'click'; selector?: string; text?: string }
  | { action: 'fill'; selector: string; value: string };

function readArgs(args: Record<string, unknown>): Args {
  const action = requiredString(args, 'action');
  switch (action) {
    case 'navigate':
      return { action, url: requiredString(args, 'url') };
    case 'read':
    case 'screenshot':
    case 'close':
      return { action };
    case 'click': {
      const selector = optionalString(args, 'selector');
      const text = optionalString(args, 'text');
      if (selector === undefined && text === undefined) {
        throw new ToolArgumentError('click needs "selector" (a CSS selector) or "text" (the visible text)');
      }
      return { action, ...(selector !== undefined ? { selector } : { text }) };
    }
    case 'fill': {
      const value = args.value;
      if (typeof value !== 'string') throw new ToolArgumentError('fill needs "value": the text to put in the field');
      return { action, selector: requiredString(args, 'selector'), value };
    }
    default:
      throw new ToolArgumentError(
        `Invalid argument "action": expected one of ${BROWSER_ACTIONS.join(', ')}, got "${action}"`,
      );
  }
}

const fail = (error: string, code?: ErrorCode) => ({ success: false, error, ...(code ? { code } : {}) });

/** The browser tool over `options.pool`. */
export function createBrowserTool(options: BrowserToolOptions): ToolDefinition {
  const { pool } = options;

  const screenshot = async (session: BrowserSession, context: ToolContext) => {
    const shot = await screenshotOf(session.page);
    const digest = createHash('sha256').update(shot.png).digest('hex').slice(0, 16);
    const dir = options.screenshotDir(context.user?.key);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, `screenshot-${digest}.png`);
    await writeFile(file, shot.png, { mode: 0o600 });
    const shown = context.attachImage?.({ path: file, mimeType: 'image/png' }) ?? false;
    return {
      url: shot.url,
      title: shot.title,
      path: file,
      bytes: shot.png.length,
      shown,
      ...(shown ? {} : { note: 'the image is not shown to you here (model.vision is off); the file is at path' }),
    };
  };

  const act = async (args: Args, session: BrowserSession, context: ToolContext): Promise<object> => {
    switch (args.action) {
      case 'navigate': {
        try {
          return await openUrl(session.page, args.url);
        } catch (err) {
          return fail(`cannot open ${args.url}: ${describeNavigationError(err)}`, ERROR_CODES.WEB_FETCH);
        }
      }
      case 'read':
        return readPage(session.page, options.maxTextChars).then(({ cut, ...page }) =>
          cut > 0 ? { ...page, content_cut_chars: cut } : page,
        );
      case 'click':
        return clickOn(session.page, args);
      case 'fill':
        return fillIn(session.page, args.selector, args.value);
      case 'screenshot':
        return screenshot(session, context);
      case 'close':
        return {};
    }
  };

  const handler = async (raw: Record<string, unknown>, context: ToolContext) => {
    const parsed = parseArgs(() => readArgs(raw));
    if (!parsed.ok) return fail(parsed.error, parsed.code);
    const args = parsed.value;
    if (context.signal.aborted) return fail('interrupted', ERROR_CODES.INTERRUPTED);
    if (args.action === 'close') return { success: true, closed: await pool.closeSession(context.sessionId) };
    if (args.action === 'navigate') {
      // judged before anything starts: a refused URL launches no browser
      const files = await pool.files(context.sessionId, context.user);
      const verdict = await judgeNavigation(args.url, files, { policy: options.policy });
      if (!verdict.ok) return fail(verdict.reason, ERROR_CODES.WEB_URL_REFUSED);
    }
    try {
      return await pool.use(context.sessionId, context.user, async (session) => {
        const before = session.refused.length;
        const result = await act(args, session, context);
        if ('success' in result) return result;
        const blocked = [...new Set(session.refused.slice(before))].slice(0, BLOCKED_SHOWN);
        return { success: true, ...result, ...(blocked.length > 0 ? { blocked } : {}) };
      });
    } catch (err) {
      if (err instanceof BrowserUnavailableError) return fail(err.message);
      const message = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
      if (err instanceof Error && err.name === 'TimeoutError') {
        return fail(`browser ${args.action} timed out (tools.browser.timeout_s: ${options.timeoutS} s): ${message}`);
      }
      return fail(`browser ${args.action} failed: ${message}`);
    }
  };

  return {
    name: BROWSER_TOOL,
    toolset: 'browser',
    optIn: true,
    schema: SCHEMA,
    handler,
    owner: 'builtin',
    emoji: '🌐',
    description: 'a headless Chromium page per session: navigate, read, fill, click, screenshot',
  };
}
