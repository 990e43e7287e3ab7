/**
 * The process-start settings of Hermes (docs/performance.md, "Idle RSS: the launcher's settings"):
 * glibc's malloc told to give freed memory back (it reads these variables only when a process
 * starts, so nothing inside node can set them) and one V8 worker thread instead of four (each
 * thread that allocates gets a malloc arena of its own). `bin/hermes.js` carries them in its
 * shebang (`hermes` typed in a shell, through npm's bin link); what starts node on that file
 * itself (the service units, `hermes gateway start`, the container) passes them explicitly.
 * test/launch-settings.test.ts fails if the shebang and these disagree.
 */

/** Environment glibc's malloc reads at process start: mmap above 128 KiB and trim the heap above 128 KiB free. */
export const LAUNCH_ENV: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
};

/** node's options, before the script. */
export const LAUNCH_NODE_FLAGS: readonly string[] = ['--v8-pool-size=1'];

/**
 * The bin's first line: `env -S` splits the rest into the variables, `node` (found on PATH) and
 * its options. Linux's kernels before 5.1 read 127 bytes of a shebang: it stays shorter.
 */
export function launchShebang(): string {
  const vars = Object.entries(LAUNCH_ENV).map(([k, v]) => `${k}=${v}`);
  return `#!/usr/bin/env -S ${[...vars, 'node', ...LAUNCH_NODE_FLAGS].join(' ')}`;
}
