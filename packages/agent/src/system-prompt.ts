/** The system prompt: built once per session and byte-identical across turns (prompt caches rely on it). */
export const DEFAULT_SYSTEM_PROMPT = [
  'You are Hermes, a helpful assistant that can use tools.',
  'Use a tool when it helps answer accurately; otherwise answer directly.',
  'Tool results are JSON; an "error" key means the call failed and you may retry differently or explain.',
  'Be concise.',
].join('\n');

export interface SystemPromptOptions {
  custom?: string | undefined;
  platform: string;
  /** the skills index (skills/skill-catalog.ts), fixed for the process; empty or absent: none */
  skillsIndex?: string | undefined;
}

/** The system prompt for a session: the configured one, or the default plus the platform's name. */
export function buildSystemPrompt(options: SystemPromptOptions): string {
  const base = options.custom?.trim() ? options.custom.trim() : DEFAULT_SYSTEM_PROMPT;
  const prompt = `${base}\n\nYou are talking to the user through: ${options.platform}.`;
  return options.skillsIndex ? `${prompt}\n\n${options.skillsIndex}` : prompt;
}
