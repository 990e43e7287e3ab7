/**
 * The process-start settings of Hermes (docs/performance.md, "Idle RSS: the launcher's settings"):
 * glibc's malloc told to give freed memory back (it reads these variables only when a process
 * starts, so nothing inside node can set them) and one V8 worker thread instead of four (each
 * thread that allocates gets a malloc arena of its own). `bin/hermes.js` carries them in its
 * first two lines (`hermes` typed in a shell, through npm's bin link); what starts node on that
 * file itself (the service units, `hermes gateway start`, the container) passes them explicitly.
 * test/launch-settings.test.ts fails if the bin and these disagree.
 */

/** Environment glibc's malloc reads at process start: mmap above 128 KiB and trim the heap above 128 KiB free. */
export const LAUNCH_ENV: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
};

/** node's options, before the script. */
export const LAUNCH_NODE_FLAGS: readonly string[] = ['--v8-pool-size=1'];

/**
 * The bin's first two lines: run as a program (`hermes` typed in a shell, through npm's bin link),
 * POSIX sh reads them and execs node with the variables and options; node reads the same file as
 * JavaScript, where the second line is a string and a comment. A POSIX sh rather than
 * `#!/usr/bin/env -S`, which BusyBox's env (Alpine) does not know.
 */
export function launchPreamble(): string {
  const vars = Object.entries(LAUNCH_ENV).map(([k, v]) => `${k}=${v}`);
  return `#!/bin/sh\n':' //; exec env ${[...vars, 'node', ...LAUNCH_NODE_FLAGS].join(' ')} "$0" "$@"`;
}
