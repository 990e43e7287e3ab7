/**
 * Starting the platforms without waiting for them (`Gateway.launch`, what `gateway run` calls once
 * it listens, so /health answers `degraded` while they connect). The inbox's unfinished rows are
 * read first, before any adapter can accept: a message this run accepts while another platform is
 * still connecting is processed once, never also "resumed". Each platform's rows are resumed once
 * that platform's adapter has started (connected or failed), so a resumed answer has a connection
 * to go out on; rows of a platform that is not on this run are resumed at once (their delivery
 * fails and is logged).
 */
import type { InboundSink, Logger, PlatformAdapter } from '@hermes/protocol';
import type { PendingRow } from '../intake/recover.js';

export interface LaunchPorts {
  adapters: ReadonlyMap<string, PlatformAdapter>;
  sink: InboundSink;
  logger: Logger;
  /** claims the inbox's unfinished rows (the store's only instance: every one of them) */
  unfinished(): Promise<readonly PendingRow[]>;
  recover(rows: readonly PendingRow[]): void;
  /** false once the gateway is stopping: rows not resumed yet stay pending for the next start */
  accepting(): boolean;
}

/** Starts every adapter; resolves when each has started (connected or failed). */
export async function launchPlatforms(ports: LaunchPorts): Promise<void> {
  const unfinished = await ports.unfinished(); // before any adapter starts accepting
  ports.recover(unfinished.filter((row) => !ports.adapters.has(row.platform)));
  await Promise.all(
    [...ports.adapters.values()].map(async (adapter) => {
      try {
        await adapter.start(ports.sink);
      } catch (err) {
        ports.logger.error({ err, platform: adapter.name }, `platform ${adapter.name} failed to start`);
      }
      if (ports.accepting()) ports.recover(unfinished.filter((row) => row.platform === adapter.name));
    }),
  );
}
