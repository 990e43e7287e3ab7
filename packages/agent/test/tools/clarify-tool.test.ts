// The clarify tool: its arguments checked, the question handed to ToolContext.clarify with the
// handler's signal, each answer as the model reads it; where nobody can answer it returns at once.
import type { ClarifyAnswer, ClarifyQuestion } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { createClarifyTool } from '../../src/tools/index.js';
import { callTool, createFakeContext } from './fake-tool-context.js';

const tool = createClarifyTool();

function asking(answer: ClarifyAnswer) {
  const { context, controller } = createFakeContext();
  const asked: { question: ClarifyQuestion; signal: AbortSignal }[] = [];
  context.clarify = async (question, signal) => {
    asked.push({ question, signal });
    return answer;
  };
  return { context, controller, asked };
}

describe('the clarify tool', () => {
  it('asks the question with its choices (trimmed) and returns the picked choice', async () => {
    const { context, asked } = asking({ kind: 'answered', text: 'Paris', choice: 1, via: 'button' });
    const result = await callTool(tool, { question: ' Which city? ', choices: ['Rome', ' Paris '] }, context);
    expect(asked).toEqual([
      { question: { question: 'Which city?', choices: ['Rome', 'Paris'] }, signal: context.signal },
    ]);
    expect(result).toEqual({ answer: 'Paris', choice: 1, via: 'button' });
  });

  it('a free-text question has no choices; a typed answer has choice null', async () => {
    const { context, asked } = asking({ kind: 'answered', text: 'next Tuesday', choice: null, via: 'text' });
    expect(await callTool(tool, { question: 'When?' }, context)).toEqual({
      answer: 'next Tuesday',
      choice: null,
      via: 'text',
    });
    expect(asked[0]?.question.choices).toEqual([]);
  });

  it('a timeout and a cancel say the user did not answer', async () => {
    const timedOut = asking({ kind: 'timeout', timeoutMs: 90_000 });
    expect(await callTool(tool, { question: 'Sure?' }, timedOut.context)).toEqual({
      answered: false,
      reason: expect.stringContaining('did not answer within 90 s') as unknown,
    });
    const cancelled = asking({ kind: 'cancelled' });
    expect(await callTool(tool, { question: 'Sure?' }, cancelled.context)).toMatchObject({ answered: false });
  });

  it('refuses bad arguments without asking', async () => {
    const { context, asked } = asking({ kind: 'cancelled' });
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{}, /Missing required argument "question"/],
      [{ question: '  ' }, /non-empty/],
      [{ question: 'q', choices: 'a,b' }, /"choices": expected an array/],
      [{ question: 'q', choices: ['a', 'b', 'c', 'd', 'e', 'f'] }, /at most 5 choices/],
      [{ question: 'q', choices: ['a', ''] }, /"choices\[1\]": expected a non-empty string/],
      [{ question: 'q', choices: ['x'.repeat(61)] }, /at most 60 characters/],
      [{ question: 'q', choices: ['Yes', 'yes'] }, /offered twice/],
    ];
    for (const [args, error] of bad) {
      const result = await callTool(tool, args, context);
      expect(result.error, JSON.stringify(args)).toMatch(error);
      expect(result.code).toBe('HERMES_TOOL_ARGS');
    }
    expect(asked).toEqual([]);
  });

  it('where nobody can answer (no ToolContext.clarify) it returns at once, saying so', async () => {
    const { context } = createFakeContext();
    const result = await callTool(tool, { question: 'Which one?', choices: ['a', 'b'] }, context);
    expect(result).toMatchObject({ answered: false });
    expect(result.error).toMatch(/Nobody can answer/);
  });
});
