// Cluster mode (CHAOS_CLUSTER): the audit of audit.ts, read from the PostgreSQL database every
// instance shared instead of one home's state.db.
import pg from 'pg';
import { AUDIT_QUERIES, type AuditRows, type StateAudit, summarizeAudit } from './audit.js';

export async function auditPostgres(url: string): Promise<StateAudit> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // the inbox statuses name the instance that owns each row (`done@chaos-2`): which one answered
    const queries = {
      ...AUDIT_QUERIES,
      inbox: `SELECT status || '@' || COALESCE(owner, '-') AS status, payload FROM inbox`,
    };
    const all = async <K extends keyof AuditRows>(name: K): Promise<AuditRows[K]> =>
      (await client.query(queries[name])).rows as AuditRows[K];
    return summarizeAudit({
      inbox: await all('inbox'),
      unsent: await all('unsent'),
      messages: await all('messages'),
      inboxByStatus: await all('inboxByStatus'),
      outboxByStatus: await all('outboxByStatus'),
    });
  } finally {
    await client.end();
  }
}
