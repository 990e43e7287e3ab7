/** media.cache_days: files in the media cache older than that are removed, at start and then daily. */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@hermes/protocol';

const DAY_MS = 86_400_000;

/** Removes the files in `dir` and its folders (each user's, outbound downloads) last modified more than `days` ago; resolves with how many. */
export async function cleanMediaCache(dir: string, days: number, now: number = Date.now()): Promise<number> {
  const cutoff = now - days * DAY_MS;
  let removed = 0;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0; // no cache yet
  }
  for (const name of names) {
    const path = join(dir, name);
    try {
      const info = await stat(path);
      if (info.isDirectory()) removed += await cleanMediaCache(path, days, now);
      else if (info.isFile() && info.mtimeMs < cutoff) {
        await rm(path, { force: true });
        removed += 1;
      }
    } catch {
      // gone meanwhile (another cleanup, a download's rename): nothing to do
    }
  }
  return removed;
}

/** Cleans now and every day after (the timer never keeps the process alive); stop() ends it. */
export function startMediaCleanup(dir: string, days: number, logger: Logger): { stop(): void } {
  const run = () =>
    void cleanMediaCache(dir, days).then(
      (removed) => {
        if (removed > 0) logger.info({ removed, days }, 'media cache: removed files older than media.cache_days');
      },
      (error: unknown) => logger.warn({ error: String(error) }, 'media cache cleanup failed'),
    );
  run();
  const timer = setInterval(run, DAY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
