// imapflow, nodemailer, mailparser and html-to-text load when the email platform starts, not when
// the plugin is imported, registered or its adapter created (the gateway does those before it
// listens). A static import of one of them from index.ts, factory.ts or a module they import
// brings it back; this test sees it in the packages a fresh process resolves, from the build (dist/).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { runCodeResolving } from '../../../../test/helpers/resolved-modules.js';

const dir = mkdtempSync(join(tmpdir(), 'hermes-email-lazy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const entry = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href;
const LIBRARIES = ['imapflow', 'nodemailer', 'mailparser', 'html-to-text'];

it('importing, registering and creating the adapter loads none of its mail libraries', () => {
  const code = `
    const plugin = await import(${JSON.stringify(entry)});
    let registered;
    plugin.register({ registerPlatform: (r) => { registered = r; } });
    const adapter = registered.factory.create({
      settings: {}, logger: { debug() {}, info() {}, warn() {}, error() {} }, cacheDir: ${JSON.stringify(dir)},
      env: { EMAIL_ADDRESS: 'bot@example.com', EMAIL_PASSWORD: 'p', EMAIL_IMAP_HOST: 'imap.example.com', EMAIL_SMTP_HOST: 'smtp.example.com' },
      state: { get: () => undefined, set() {} }, commands: () => [], route() {},
    });
    console.log(adapter.name, adapter.status().state, typeof adapter.sendMedia);`;
  const run = runCodeResolving(code);
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout.trim()).toBe('email disconnected function');
  const resolved = run.urls.join('\n');
  expect(resolved).toContain('/plugins/platforms/email/dist/factory.js');
  for (const library of LIBRARIES) expect(resolved).not.toContain(`/node_modules/${library}/`);
});
