// Preloaded into a benched process (`node --require test/bench/heap-sampler.cjs …` with HEAP_SAMPLE_OUT=FILE):
// V8's sampling heap profiler counting the objects the GC has collected too (Node's own --heap-prof keeps
// only what is still alive). The first SIGWINCH (ignored by node otherwise) starts it, the second writes
// what it sampled since to FILE (a .heapprofile) and stops: profile-gateway.ts sends them around its last
// measured round, so the profile's total over that round's messages is the allocation per message.
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');

const out = process.env.HEAP_SAMPLE_OUT;
if (out) {
  const session = new Session();
  session.connect();
  let sampling = false;
  process.on('SIGWINCH', () => {
    if (!sampling) {
      sampling = true;
      session.post('HeapProfiler.startSampling', {
        samplingInterval: Number(process.env.HEAP_SAMPLE_INTERVAL ?? 16384),
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      return;
    }
    sampling = false;
    // a main-thread session answers synchronously
    session.post('HeapProfiler.stopSampling', (err, result) => {
      writeFileSync(out, err ? JSON.stringify({ error: String(err) }) : JSON.stringify(result.profile));
    });
  });
}
