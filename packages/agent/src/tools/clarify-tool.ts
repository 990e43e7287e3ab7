/**
 * The `clarify` tool: `{question, choices?}` put to the user who started the turn, which waits for
 * their answer (a button, a typed reply) and returns it. Offered only on turns where a user can
 * answer (`ToolContext.clarify`: a gateway chat, `hermes chat`); the turn service leaves it out
 * elsewhere (cron, `hermes -z`, the API, a hook's runAgent, a delegated child).
 */
import {
  CLARIFY_MAX_CHOICE_CHARS,
  CLARIFY_MAX_CHOICES,
  CLARIFY_MAX_QUESTION_CHARS,
  type ClarifyAnswer,
  type ClarifyQuestion,
  type ToolContext,
  type ToolDefinition,
} from '@hermes/protocol';
import { parseArgs, requiredString, ToolArgumentError } from './tool-args.js';
import { errorResult, jsonResult } from './tool-result.js';

export const CLARIFY_TOOL = 'clarify';

const SCHEMA = {
  name: CLARIFY_TOOL,
  description: [
    'Ask the user a question and wait for the answer, when you cannot go on well without it (an ambiguous',
    `request, a choice only they can make). With choices (up to ${CLARIFY_MAX_CHOICES} short answers) they are`,
    'shown as buttons; the user may also type an answer of their own. Without choices it is a free-text',
    'question. Returns {answer, choice} (choice: the index of the button picked, null for a typed answer of',
    'their own), or {answered: false, reason} when nobody answered in time. Ask one question at a time; do',
    'not use it for things you can find out yourself.',
  ].join(' '),
  parameters: {
    type: 'object',
    properties: {
      question: { type: 'string', description: 'The question, short and plain.' },
      choices: {
        type: 'array',
        items: { type: 'string' },
        maxItems: CLARIFY_MAX_CHOICES,
        description: `Up to ${CLARIFY_MAX_CHOICES} short answers to offer as buttons (at most ${CLARIFY_MAX_CHOICE_CHARS} characters each).`,
      },
    },
    required: ['question'],
    additionalProperties: false,
  },
};

/** Reads and checks the arguments into a question. */
export function readClarifyArgs(args: Record<string, unknown>): ClarifyQuestion {
  const question = requiredString(args, 'question').trim();
  if (question.length > CLARIFY_MAX_QUESTION_CHARS)
    throw new ToolArgumentError(`Invalid argument "question": at most ${CLARIFY_MAX_QUESTION_CHARS} characters`);
  const raw = args.choices;
  if (raw === undefined || raw === null) return { question, choices: [] };
  if (!Array.isArray(raw)) throw new ToolArgumentError('Invalid argument "choices": expected an array of strings');
  if (raw.length > CLARIFY_MAX_CHOICES)
    throw new ToolArgumentError(`Invalid argument "choices": at most ${CLARIFY_MAX_CHOICES} choices`);
  const choices: string[] = [];
  for (const [i, value] of raw.entries()) {
    if (typeof value !== 'string' || value.trim() === '')
      throw new ToolArgumentError(`Invalid argument "choices[${i}]": expected a non-empty string`);
    const choice = value.trim().replace(/\s+/g, ' ');
    if (choice.length > CLARIFY_MAX_CHOICE_CHARS)
      throw new ToolArgumentError(`Invalid argument "choices[${i}]": at most ${CLARIFY_MAX_CHOICE_CHARS} characters`);
    if (choices.some((c) => c.toLowerCase() === choice.toLowerCase()))
      throw new ToolArgumentError(`Invalid argument "choices[${i}]": "${choice}" is offered twice`);
    choices.push(choice);
  }
  return { question, choices };
}

/** The answer as the model reads it. */
export function clarifyResult(answer: ClarifyAnswer): string {
  switch (answer.kind) {
    case 'answered':
      return jsonResult({ answer: answer.text, choice: answer.choice, via: answer.via });
    case 'timeout':
      return jsonResult({
        answered: false,
        reason: `The user did not answer within ${Math.round(answer.timeoutMs / 1000)} s. Go on without the answer, or say what you need.`,
      });
    case 'cancelled':
      return jsonResult({ answered: false, reason: 'The question was cancelled before the user answered.' });
  }
}

/** The clarify tool (toolset `clarify`). */
export function createClarifyTool(): ToolDefinition {
  const handler = async (args: Record<string, unknown>, context: ToolContext): Promise<string> => {
    const parsed = parseArgs(() => readClarifyArgs(args));
    if (!parsed.ok) return errorResult(parsed.error, { code: parsed.code });
    if (context.clarify === undefined)
      return errorResult('Nobody can answer a question here (no user is waiting in a chat): go on without asking.', {
        answered: false,
      });
    return clarifyResult(await context.clarify(parsed.value, context.signal));
  };
  return { name: CLARIFY_TOOL, toolset: 'clarify', schema: SCHEMA, handler, owner: 'builtin', emoji: '❓' };
}
