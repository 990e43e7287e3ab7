// The growth bench with the context engine on: a small model.context_length in the bench gateway's
// config.yaml, so a chat's requests stop growing with its history (issue 19's performance target:
// a turn on a 5,000-message session costs no more than 2× a turn on a fresh one).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

/** the model.context_length the growth bench runs with (tokens) */
export const GROWTH_CONTEXT_LENGTH = 8_000;

/** BENCH_GROWTH_CONTEXT_LENGTH: tokens (0: compression off, every request carries the whole history). */
export function growthContextLength(): number {
  const raw = process.env.BENCH_GROWTH_CONTEXT_LENGTH;
  if (raw === undefined || raw.trim() === '') return GROWTH_CONTEXT_LENGTH;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : GROWTH_CONTEXT_LENGTH;
}

/** Sets model.context_length in HERMES_HOME/config.yaml (written by the bench's process starter). */
export function setContextLength(home: string, tokens: number): void {
  if (tokens <= 0) return;
  const file = join(home, 'config.yaml');
  const config = (parse(readFileSync(file, 'utf8')) ?? {}) as { model?: Record<string, unknown> };
  config.model = { ...config.model, context_length: tokens };
  writeFileSync(file, stringify(config));
}
