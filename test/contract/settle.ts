// "Nothing more happens" in the contract suites, shown by a positive marker instead of a pause:
// the user's /status goes the same way as what the test sent before it (the platform's transport, in
// order), so once its answer is here the gateway has taken the earlier input in; then it is idle.
import type { ContractUser, PlatformDriver, SentText } from './driver.js';
import type { ContractGateway } from './harness.js';
import { eventually } from './recorders.js';

const MARKER_WAIT_MS = 30_000;

/** the gateway's answer to /status (a command: the model is never asked; short, so one message everywhere) */
const isMarkerAnswer = (message: SentText): boolean => /^Session: .*\nRunning: /.test(message.text);

/** What the bot sent, the marker's answers left out. */
export function answers(driver: PlatformDriver): SentText[] {
  return driver.sent().filter((message) => !isMarkerAnswer(message));
}

/**
 * Sends `user`'s /status and waits for its answer, then for the gateway to be idle: whatever the
 * earlier input would (wrongly) still cause has happened by then. Assert with `answers(driver)`.
 */
export async function settleWithMarker(gw: ContractGateway, driver: PlatformDriver, user: ContractUser): Promise<void> {
  const before = driver.sent().filter(isMarkerAnswer).length;
  await driver.dm(user, '/status');
  await eventually(
    () => driver.sent().filter(isMarkerAnswer).length > before,
    MARKER_WAIT_MS,
    'the /status marker answered',
  );
  await gw.gateway.idle();
}
