#!/bin/sh
':' //; exec env MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TRIM_THRESHOLD_=131072 node --v8-pool-size=1 "$0" "$@"
// the CLI as bundled by apps/hermes/bundle.mjs (part of `npm run build`)
// The first two lines' settings lower the idle RSS (apps/hermes/src/service/launch-settings.ts, which the
// service units, `gateway start` and the container use too). glibc has read the two variables by
// now: the commands Hermes runs (tools, hooks, servers) do not inherit them.
for (const name of ['MALLOC_MMAP_THRESHOLD_', 'MALLOC_TRIM_THRESHOLD_']) {
  if (process.env[name] === '131072') delete process.env[name];
}
await import('../dist/bundle/main.js');
