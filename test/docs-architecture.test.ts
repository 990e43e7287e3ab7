// ARCHITECTURE.md draws the gateway pipeline: every box names an existing module, and every stage
// module under packages/gateway/src/pipeline/ is drawn.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const architecture = readFileSync(root('ARCHITECTURE.md'), 'utf8');

/** The pipeline section: from its heading to the next `## `. */
function pipelineSection(): string {
  const start = architecture.indexOf('## The gateway pipeline');
  const end = architecture.indexOf('\n## ', start + 1);
  return architecture.slice(start, end === -1 ? undefined : end);
}

/** Module names drawn as `[path.ts]` boxes. */
function boxes(text: string): string[] {
  return [...text.matchAll(/\[([\w./-]+\.ts)\]/g)].map((m) => m[1] ?? '');
}

describe('ARCHITECTURE.md: the gateway pipeline', () => {
  it('every box names a file under packages/gateway/src', () => {
    const drawn = boxes(pipelineSection());
    expect(drawn.length).toBeGreaterThan(10);
    for (const file of drawn) expect(existsSync(root(`packages/gateway/src/${file}`)), file).toBe(true);
  });

  it('every stage module in packages/gateway/src/pipeline is drawn (input and outcome types aside)', () => {
    const drawn = new Set(boxes(pipelineSection()));
    const modules = readdirSync(root('packages/gateway/src/pipeline')).filter(
      (f) => f.endsWith('.ts') && f !== 'input.ts' && f !== 'outcome.ts',
    );
    for (const file of modules) expect(drawn.has(`pipeline/${file}`), `pipeline/${file}`).toBe(true);
  });

  it('the turn service it names exists', () => {
    expect(pipelineSection()).toContain('packages/agent/src/turn-service.ts');
    expect(existsSync(root('packages/agent/src/turn-service.ts'))).toBe(true);
  });
});
