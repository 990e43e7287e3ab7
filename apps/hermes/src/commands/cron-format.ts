/** The table `hermes cron list` prints. */
import type { CronJobRow } from '@hermes/store';

const when = (t: number | null) => (t === null ? '-' : new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z'));

export function renderJobs(jobs: readonly CronJobRow[]): string {
  const rows = [
    ['ID', 'NAME', 'SCHEDULE', 'STATE', 'NEXT RUN', 'LAST', 'DELIVER', 'MADE BY'],
    ...jobs.map((j) => [
      j.id,
      j.name,
      `${j.schedule}${j.kind === 'cron' ? ` (${j.timezone})` : ''}`,
      j.runRequestedAt !== null ? `${j.state}, run requested` : j.state,
      when(j.nextRunAt),
      j.lastStatus ? `${j.lastStatus}${j.failures > 0 ? ` (${j.failures} failed in a row)` : ''}` : '-',
      j.deliver,
      // the user whose model made it (its runs are theirs), else the operator
      j.creator ?? 'operator',
    ]),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  const lines = rows.map((r) =>
    r
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  // what runs besides the prompt: the pre-run script and the job whose answer it reads
  const chained = jobs
    .filter((j) => j.script !== null || j.contextFrom !== null)
    .map((j) =>
      [
        `${j.id}:`,
        j.script === null ? '' : ` runs script ${j.script} first;`,
        j.contextFrom === null ? '' : ` reads job ${j.contextFrom}'s latest answer;`,
      ]
        .join('')
        .replace(/;$/, ''),
    );
  const errors = jobs.filter((j) => j.lastError).map((j) => `${j.id}: last error: ${j.lastError}`);
  return [...lines, ...chained, ...errors].join('\n');
}
