/** Sets one KEY=value in a .env file: replaces the key's line or appends it; created with mode 0600. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { quoteEnvValue } from './commands/plugins-dotenv.js';

/** Writes `key=value` into the .env at `path`, keeping every other line. */
export function writeDotEnvValue(path: string, key: string, value: string): void {
  const line = `${key}=${quoteEnvValue(value)}`;
  if (!existsSync(path)) {
    writeFileSync(path, `${line}\n`, { mode: 0o600 });
    return;
  }
  const lines = readFileSync(path, 'utf8').split('\n');
  const i = lines.findIndex((l) => new RegExp(`^\\s*(export\\s+)?${key}\\s*=`).test(l));
  if (i >= 0) lines[i] = line;
  else lines.splice(lines.at(-1) === '' ? lines.length - 1 : lines.length, 0, line);
  writeFileSync(path, lines.join('\n').replace(/\n*$/, '\n'));
}
