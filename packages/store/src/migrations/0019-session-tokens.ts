import type { Migration } from '../migration.js';

/**
 * The tokens each session used (`/usage`, issue 35): the prompt and completion tokens the model
 * reported, summed over the session's turns. Written by the turn's transcript append (the same
 * UPDATE that marks the session active), so a turn costs no extra statement.
 */
export const sessionTokens: Migration = {
  version: 19,
  name: 'session tokens',
  sql: `
ALTER TABLE sessions ADD COLUMN prompt_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN completion_tokens INTEGER NOT NULL DEFAULT 0;
`,
  pg: `
ALTER TABLE sessions ADD COLUMN prompt_tokens BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN completion_tokens BIGINT NOT NULL DEFAULT 0;
`,
};
