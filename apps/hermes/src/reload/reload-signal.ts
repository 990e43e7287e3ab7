/**
 * SIGHUP in `hermes gateway run`: a reload (gateway-reload.ts), its result written to
 * HERMES_HOME/gateway.reload.json for `hermes gateway reload`, one log line and the result on
 * stderr. A SIGHUP during start-up is kept and run once the gateway listens (a terminal's hang-up no
 * longer ends the gateway); one during the stop is ignored.
 */
import { stderr } from 'node:process';
import type { GatewayApp } from '../gateway-app.js';
import type { GlobalOptions } from '../main.js';
import { createGatewayReloader, type GatewayReloader } from './gateway-reload.js';
import { type ReloadResult, reloadLines, writeReloadResult } from './reload-result.js';

export interface ReloadSignals {
  /** the gateway listens: reloads run from now on (one asked during start-up runs now) */
  ready(app: GatewayApp, options: GlobalOptions): void;
  /** the gateway stops: SIGHUP is ignored from now on; resolves once a reload under way has finished */
  stopping(): Promise<void>;
  /** removes the handler */
  dispose(): void;
}

/** Logs the result in one line (its level by outcome), writes it for the CLI and prints it. */
function report(app: GatewayApp, result: ReloadResult): void {
  const { logger } = app.rt;
  const [head = '', ...details] = reloadLines(result);
  const fields = { reload: result };
  if (result.outcome === 'refused') logger.error(fields, `gateway ${head}`);
  else if (result.failed.length > 0 || result.restart.length > 0) logger.warn(fields, `gateway ${head}`);
  else logger.info(fields, `gateway ${head}`);
  try {
    writeReloadResult(app.rt.home, result);
  } catch (err) {
    logger.error({ err }, 'cannot write the reload result (hermes gateway reload will not see it)');
  }
  stderr.write(`hermes gateway ${head}\n${details.map((l) => `${l}\n`).join('')}`);
}

/** Installs the SIGHUP handler (call before the gateway is built). */
export function handleReloadSignals(): ReloadSignals {
  let reloader: GatewayReloader | null = null;
  let app: GatewayApp | null = null;
  let asked = false;
  let stopping = false;
  let current: Promise<void> = Promise.resolve();
  const run = () => {
    if (stopping || reloader === null || app === null) return;
    const target = app;
    current = reloader.reload().then((result) => report(target, result));
  };
  const onHangUp = () => {
    if (reloader === null) asked = true;
    else run();
  };
  process.on('SIGHUP', onHangUp);
  return {
    ready(built, options) {
      app = built;
      reloader = createGatewayReloader(built, options, built.skillCommands);
      if (asked) run();
    },
    stopping() {
      stopping = true;
      return current;
    },
    dispose() {
      process.off('SIGHUP', onHangUp);
    },
  };
}
