// A separate process for the cluster tests: one "instance" that prints what happens to it as JSON
// lines on stdout. Run: node --import tsx cluster-worker.ts <mode> <postgres url> [args...]
//   platforms <failover_s> <instance id> <platform,...>  hold platform leases until killed
//   session <session key> <hold ms>                      one runExclusive, then exit
//   try-session <session key>                            one tryRunExclusive, then exit
import pg from 'pg';
import { ClusterMembership } from '../../src/cluster/membership.js';
import { PlatformLeases } from '../../src/cluster/platform-leases.js';
import { SessionLeases } from '../../src/cluster/session-leases.js';

const [mode = '', url = '', ...args] = process.argv.slice(2);
const emit = (event: string, fields: Record<string, unknown> = {}) =>
  process.stdout.write(`${JSON.stringify({ event, at: Date.now(), pid: process.pid, ...fields })}\n`);

if (mode === 'platforms') {
  const [failover = '10', instanceId = 'worker', platforms = ''] = args;
  const leases = new PlatformLeases({
    target: url,
    instanceId,
    platforms: platforms.split(','),
    failoverS: Number(failover),
    onAcquired: (platform) => void emit('acquired', { platform }),
    onLost: (platform, reason) => void emit('lost', { platform, reason }),
  });
  const pool = new pg.Pool({ connectionString: url });
  pool.on('error', () => undefined);
  const membership = new ClusterMembership({
    pool,
    instanceId,
    heartbeatMs: 200,
  });
  await membership.start();
  await leases.start();
  emit('started');
  process.on('SIGTERM', () => void Promise.all([leases.stop(), membership.stop()]).then(() => process.exit(0)));
} else if (mode === 'session' || mode === 'try-session') {
  const [key = 's', hold = '0'] = args;
  const leases = new SessionLeases({ target: url });
  emit('waiting');
  const run = async () => {
    emit('start');
    await new Promise((r) => setTimeout(r, Number(hold)));
    emit('end');
  };
  if (mode === 'session') await leases.runExclusive(key, run);
  else if (!(await leases.tryRunExclusive(key, run)).ran) emit('busy');
  await leases.close();
} else {
  throw new Error(`unknown mode ${mode}`);
}
