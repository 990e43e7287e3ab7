// Push delivery as Telegram (webhook) and Slack (Events API over HTTP) do it: each update or event
// is POSTed to the gateway's own HTTP server and sent again when the answer is not a 200 (an error
// status, a reset connection, no answer in time, or no gateway listening at all). Telegram retries
// until it gets a 200; Slack retries 3 times (`X-Slack-Retry-Num`), then gives up. The fakes only
// build and sign the bodies; this is the platforms' side of the wire.

export interface PushPolicy {
  /** the delay before retry `n` (1-based), or undefined when the platform gives up */
  retryDelayMs(n: number): number | undefined;
  /** a request without an answer this long counts as failed (the platform's own timeout) */
  timeoutMs: number;
  /** requests in flight at once */
  concurrency: number;
}

export interface PushItem {
  /** the chaos message it carries */
  key: number;
  /** the route on the gateway, e.g. /telegram/webhook */
  path: string;
  /** the request's headers and raw body for attempt `n` (0 = first delivery) */
  request(n: number): { headers: Record<string, string>; body: string };
}

export interface PushOutcome {
  attempts: number;
  /** when the gateway first answered 200 */
  okAt: number | undefined;
  /** the platform stopped retrying without a 200 */
  gaveUp: boolean;
  /** what each failed attempt got: a status or the error's name */
  failures: string[];
}

interface Entry {
  item: PushItem;
  outcome: PushOutcome;
  dueAt: number;
  inFlight: boolean;
}

/** Delivers pushed items to the gateway whose base URL `target()` gives (undefined while none runs). */
export class PushDelivery {
  readonly #policy: PushPolicy;
  readonly #target: () => string | undefined;
  readonly #entries = new Map<number, Entry[]>();
  readonly #open: Entry[] = [];
  #inFlight = 0;
  #closed = false;

  constructor(policy: PushPolicy, target: () => string | undefined) {
    this.#policy = policy;
    this.#target = target;
  }

  push(item: PushItem): void {
    const entry: Entry = {
      item,
      outcome: { attempts: 0, okAt: undefined, gaveUp: false, failures: [] },
      dueAt: 0,
      inFlight: false,
    };
    this.#entries.set(item.key, [...(this.#entries.get(item.key) ?? []), entry]);
    this.#open.push(entry);
    this.tick(Date.now());
  }

  /** Starts the deliveries that are due, up to the concurrency. */
  tick(now: number): void {
    for (const entry of [...this.#open]) {
      if (this.#closed || this.#inFlight >= this.#policy.concurrency) return;
      if (entry.inFlight || entry.dueAt > now) continue;
      entry.inFlight = true;
      this.#inFlight += 1;
      void this.#attempt(entry).finally(() => {
        entry.inFlight = false;
        this.#inFlight -= 1;
      });
    }
  }

  async #attempt(entry: Entry): Promise<void> {
    const { outcome } = entry;
    const n = outcome.attempts;
    outcome.attempts += 1;
    let failure: string | undefined;
    const base = this.#target();
    if (base === undefined) failure = 'no gateway';
    else {
      try {
        const { headers, body } = entry.item.request(n);
        const response = await fetch(`${base}${entry.item.path}`, {
          method: 'POST',
          headers,
          body,
          signal: AbortSignal.timeout(this.#policy.timeoutMs),
        });
        await response.arrayBuffer();
        if (response.status !== 200) failure = String(response.status);
      } catch (error) {
        failure = error instanceof Error ? error.name : 'error';
      }
    }
    if (failure === undefined) {
      outcome.okAt = Date.now();
      this.#close(entry);
      return;
    }
    outcome.failures.push(failure);
    const delay = this.#policy.retryDelayMs(outcome.attempts);
    if (delay === undefined) {
      outcome.gaveUp = true;
      this.#close(entry);
      return;
    }
    entry.dueAt = Date.now() + delay;
  }

  #close(entry: Entry): void {
    const at = this.#open.indexOf(entry);
    if (at >= 0) this.#open.splice(at, 1);
  }

  /** The outcomes of the items carrying message `key` (a Slack mention is two events). */
  outcomes(key: number): readonly PushOutcome[] {
    return (this.#entries.get(key) ?? []).map((e) => e.outcome);
  }

  /** Requests on the wire right now. */
  inFlight(): number {
    return this.#inFlight;
  }

  /** Items not yet answered 200 and not given up. */
  pending(): number {
    return this.#open.length;
  }

  /** Retries made so far, over all items. */
  retries(): number {
    let n = 0;
    for (const entries of this.#entries.values()) for (const e of entries) n += Math.max(0, e.outcome.attempts - 1);
    return n;
  }

  /** Stops starting new attempts (requests in flight finish). */
  close(): void {
    this.#closed = true;
  }
}

/** Telegram: a webhook update that got no 200 is sent again until it does (growing gaps, 4 s at most). */
export const TELEGRAM_WEBHOOK_POLICY: PushPolicy = {
  retryDelayMs: (n) => Math.min(4_000, 250 * 2 ** n),
  timeoutMs: 10_000,
  concurrency: 8,
};

/**
 * WhatsApp (Meta's webhooks): a notification that got no 200 is sent again, for up to 7 days with
 * growing gaps; here up to 4 s apart, like Telegram's, so the run stays short.
 */
export const WHATSAPP_WEBHOOK_POLICY: PushPolicy = {
  retryDelayMs: (n) => Math.min(4_000, 250 * 2 ** n),
  timeoutMs: 10_000,
  concurrency: 8,
};

/**
 * Slack: an event that got no 200 within 3 s is sent again, 3 times at most. Slack's own gaps are
 * about immediately, 1 minute and 5 minutes; here 1, 60 and 120 s (the last one shortened so the
 * run stays short). The run's gateway is down for about 40 % of the stream (an outage every ~13
 * s), far more than any real one, so shorter gaps would make Slack give up on events for outages
 * no real deployment has.
 */
export const SLACK_HTTP_POLICY: PushPolicy = {
  retryDelayMs: (n) => [1_000, 60_000, 120_000][n - 1],
  timeoutMs: 3_000,
  concurrency: 8,
};
