// The fake model for the pipeline benchmarks, in a process of its own (as a real model endpoint
// is): its CPU is not charged to the gateway under test. Answers every request with one text.
import { type RecordedRequest, startFakeOpenAI } from '../fakes/openai-server.js';

const ANSWER = process.env.BENCH_MODEL_ANSWER ?? 'echo';
const model = await startFakeOpenAI();
model.respond(() => ({ text: ANSWER }));
process.on('message', (message: unknown) => {
  if (message === 'count') {
    // the count since the last ask; the records are dropped so memory stays flat
    const count = model.requests.length;
    (model.requests as RecordedRequest[]).length = 0;
    process.send?.({ count });
  }
});
process.on('disconnect', () => {
  void model.close().finally(() => process.exit(0));
});
process.send?.({ url: model.url });
