/** Sets one KEY=value in a .env file: replaces the key's line or appends it; the file is left 0600. */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { makePrivateParent } from '@hermes/config';
import { quoteEnvValue } from './commands/plugins-dotenv.js';

/** Writes `key=value` into the .env at `path`, keeping every other line. */
export function writeDotEnvValue(path: string, key: string, value: string): void {
  const line = `${key}=${quoteEnvValue(value)}`;
  if (!existsSync(path)) {
    makePrivateParent(path);
    writeFileSync(path, `${line}\n`, { mode: 0o600 });
    chmodSync(path, 0o600); // the umask can only narrow a mode; chmod makes it exact
    return;
  }
  const lines = readFileSync(path, 'utf8').split('\n');
  const i = lines.findIndex((l) => new RegExp(`^\\s*(export\\s+)?${key}\\s*=`).test(l));
  if (i >= 0) lines[i] = line;
  else lines.splice(lines.at(-1) === '' ? lines.length - 1 : lines.length, 0, line);
  writeFileSync(path, lines.join('\n').replace(/\n*$/, '\n'));
  chmodSync(path, 0o600); // an older .env created with a wider mode is tightened: it holds secrets
}
