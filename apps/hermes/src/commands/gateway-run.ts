/** `hermes gateway run`: the gateway in the foreground, what a service manager or container runs. */
import { EXIT } from '@hermes/protocol';
import { CliExit, exitCodeFor } from '../cli-error.js';
import { buildGatewayApp } from '../gateway-app.js';
import type { GlobalOptions } from '../main.js';

/** Runs until SIGINT/SIGTERM, then stops gracefully. */
export async function runGateway(options: GlobalOptions): Promise<void> {
  let app: Awaited<ReturnType<typeof buildGatewayApp>>;
  try {
    app = await buildGatewayApp(options);
  } catch (err) {
    // invalid configuration exits 78 so a supervisor does not restart-loop
    const code = exitCodeFor(err);
    throw new CliExit(code === EXIT.ERROR ? EXIT.ERROR : code, err instanceof Error ? err.message : String(err));
  }
  const url = await app.listen();
  process.stderr.write(
    `hermes gateway listening on ${url} (platforms: ${[...app.gateway.adapters.keys()].join(', ') || 'api only'})\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  process.stderr.write('hermes gateway stopping...\n');
  await app.stop();
}
