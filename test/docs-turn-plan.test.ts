// ARCHITECTURE.md's surface × stage table is the one in packages/protocol/src/turn-plan.ts, and
// the gateway runs every turn through its one turn stage: no other module calls TurnService.run.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SURFACE_PLANS, SURFACES, TURN_STAGES, turnPlanTable } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const architecture = readFileSync(root('ARCHITECTURE.md'), 'utf8');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('the surface × stage table', () => {
  it('ARCHITECTURE.md shows the table the gateway reads (regenerate it from turnPlanTable())', () => {
    const begin = '<!-- turn-plan-table:begin -->';
    const end = '<!-- turn-plan-table:end -->';
    const shown = architecture.slice(architecture.indexOf(begin) + begin.length, architecture.indexOf(end)).trim();
    expect(shown).toBe(turnPlanTable());
  });

  it('every cell is ✓ or a reason, and every gateway surface has the stages the issue names', () => {
    for (const surface of SURFACES) {
      for (const stage of TURN_STAGES) {
        const plan = SURFACE_PLANS[surface][stage];
        if (!plan.apply) expect(plan.why.length, `${surface} × ${stage}`).toBeGreaterThan(10);
      }
    }
    for (const surface of ['chat', 'web', 'completions', 'responses', 'cron', 'hook'] as const) {
      for (const stage of ['dispatch', 'commands', 'lanes', 'events', 'metrics', 'failure_text'] as const)
        expect(SURFACE_PLANS[surface][stage].apply, `${surface} × ${stage}`).toBe(true);
    }
  });

  it('the turn stage is the one place in the gateway that runs a turn', () => {
    const callers = sources(root('packages/gateway/src'))
      .filter((file) => /\bturns\.run\(/.test(readFileSync(file, 'utf8')))
      .map((file) => file.slice(root('packages/gateway/src/').length));
    expect(callers).toEqual(['turn/turn.ts']);
  });
});
