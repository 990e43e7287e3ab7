/**
 * Set to `1` in the environment of every command the `terminal` tool runs. The `hermes` CLI
 * refuses to record consent under it (`hermes trust approve`, `plugins enable`, `config set`), so
 * a `hermes ...` the model runs cannot approve code the model wrote.
 */
export const AGENT_TERMINAL_MARKER = 'HERMES_AGENT_TERMINAL';
