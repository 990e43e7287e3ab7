// The bare echo bots run as plain JavaScript, as a deployed bot does (no TypeScript loader in the
// measured process): test/bench/bare/*.ts are transpiled once per bench run, file by file, into
// node_modules/.cache/hermes-bench/bare/*.mjs (under node_modules, so their imports resolve to the
// project's grammy, discord.js, Bolt, imapflow, mailparser and nodemailer).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SOURCE_DIR = fileURLToPath(new URL('./bare/', import.meta.url));
const OUT_DIR = fileURLToPath(new URL('../../node_modules/.cache/hermes-bench/bare/', import.meta.url));

export type BareBot =
  | 'telegram-echo'
  | 'discord-echo'
  | 'slack-echo'
  | 'whatsapp-echo'
  | 'matrix-echo'
  | 'signal-echo'
  | 'email-echo';

let built = false;

/** Transpiles the bare bots (once per process) and returns the path of `bot`'s entry script. */
export function bareScript(bot: BareBot): string {
  if (!built) {
    mkdirSync(OUT_DIR, { recursive: true });
    for (const file of readdirSync(SOURCE_DIR)) {
      if (!file.endsWith('.ts')) continue;
      const { outputText } = ts.transpileModule(readFileSync(join(SOURCE_DIR, file), 'utf8'), {
        fileName: file,
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      // relative imports name the .mjs files written here
      const js = outputText.replace(/from '(\.\/[^']+)\.js'/g, "from '$1.mjs'");
      writeFileSync(join(OUT_DIR, file.replace(/\.ts$/, '.mjs')), js);
    }
    built = true;
  }
  return join(OUT_DIR, `${bot}.mjs`);
}
