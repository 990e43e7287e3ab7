// imapflow, nodemailer, mailparser and html-to-text load when the email platform starts, not when
// the plugin is imported, registered or its adapter created (the gateway does those before it
// listens). A static import of one of them from index.ts, factory.ts or a module they import
// brings it back; this test sees it in the packages a fresh process resolves, from the build (dist/).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'hermes-email-lazy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const entry = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href;
const LIBRARIES = ['imapflow', 'nodemailer', 'mailparser', 'html-to-text'];

it('importing, registering and creating the adapter loads none of its mail libraries', () => {
  const log = join(dir, 'resolved.txt');
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) {\n  const r = await next(s, c);\n  appendFileSync(${JSON.stringify(log)}, r.url + '\\n');\n  return r;\n}\n`,
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  writeFileSync(log, '');
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
  const run = spawnSync(
    process.execPath,
    ['--import', pathToFileURL(register).href, '--input-type=module', '-e', code],
    {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    },
  );
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout.trim()).toBe('email disconnected function');
  const resolved = readFileSync(log, 'utf8');
  expect(resolved).toContain('/plugins/platforms/email/dist/factory.js');
  for (const library of LIBRARIES) expect(resolved).not.toContain(`/node_modules/${library}/`);
});
