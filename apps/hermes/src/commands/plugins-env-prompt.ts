/** After an install: asks for each requires_env variable that is not set yet and saves it to .env. */
import { loadDotEnv } from '@hermes/config';
import { appendDotEnv } from './plugins-dotenv.js';
import type { EnvNeed } from './plugins-entry.js';
import type { Prompter } from './plugins-prompt.js';

function promptText(need: EnvNeed): string {
  const details = [need.description, need.url].filter((d): d is string => d !== null);
  return details.length > 0 ? `${need.name} (${details.join(', ')}): ` : `${need.name}: `;
}

/** Prompts for the unset variables of `needs`, appends the answers to HOME/.env; returns the names saved. */
export async function promptForEnv(home: string, needs: readonly EnvNeed[], prompter: Prompter): Promise<string[]> {
  const dotenv = loadDotEnv(home, process.env);
  const unset = needs.filter((n) => !dotenv.merged[n.name]);
  const answers: [string, string][] = [];
  for (const need of unset) {
    const answer = (await prompter.ask(promptText(need), { secret: need.secret }))?.trim() ?? '';
    if (answer === '') {
      process.stdout.write(`${need.name} left unset: the plugin will not load until it is set in ${dotenv.path}\n`);
      continue;
    }
    answers.push([need.name, answer]);
  }
  appendDotEnv(dotenv.path, answers);
  if (answers.length > 0) process.stdout.write(`saved ${answers.map(([k]) => k).join(', ')} to ${dotenv.path}\n`);
  return answers.map(([k]) => k);
}
