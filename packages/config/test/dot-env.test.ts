import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyDotEnv, loadDotEnv } from '@hermes/config';
import { describe, expect, it } from 'vitest';
import { tempHome } from './helpers.js';

describe('loadDotEnv', () => {
  it('parses <home>/.env and lets the given environment win in merged', () => {
    const home = tempHome();
    writeFileSync(
      join(home, '.env'),
      '# secrets\nTELEGRAM_BOT_TOKEN=from-file\nOPENAI_API_KEY="sk-file"\nONLY_FILE=1\n',
    );
    const before = { ...process.env };
    const result = loadDotEnv(home, { TELEGRAM_BOT_TOKEN: 'from-process', UNSET: undefined });
    expect(result.exists).toBe(true);
    expect(result.values).toEqual({ TELEGRAM_BOT_TOKEN: 'from-file', OPENAI_API_KEY: 'sk-file', ONLY_FILE: '1' });
    expect(result.merged).toEqual({ TELEGRAM_BOT_TOKEN: 'from-process', OPENAI_API_KEY: 'sk-file', ONLY_FILE: '1' });
    expect('UNSET' in result.merged).toBe(false);
    expect(process.env).toEqual(before);
  });

  it('treats a missing file as empty', () => {
    const result = loadDotEnv(tempHome(), { A: 'x' });
    expect(result).toMatchObject({ exists: false, values: {}, merged: { A: 'x' } });
  });
});

describe('applyDotEnv', () => {
  it('sets only keys that are not already present', () => {
    const target: Record<string, string | undefined> = { KEEP: 'process', EMPTY: '' };
    const applied = applyDotEnv({ KEEP: 'file', EMPTY: 'file', NEW: 'file' }, target);
    expect(target).toEqual({ KEEP: 'process', EMPTY: '', NEW: 'file' });
    expect(applied).toEqual(['NEW']);
  });
});
