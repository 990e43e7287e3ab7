/**
 * A model provider profile (`ctx.registerModelProvider(profile)`): where an OpenAI-compatible
 * Chat Completions endpoint lives, which environment variable holds its key, and its defaults.
 * `model.provider` picks the active one; `/model provider:model` switches one session to another.
 */
export interface ModelProviderProfile {
  /** stable id used by `model.provider`, `--provider` and `/model provider:model`: lower-case letters, digits, "-", "_" */
  name: string;
  /** the OpenAI-compatible base URL, ending before `/chat/completions` (e.g. `https://api.openai.com/v1`) */
  baseUrl: string;
  /** the environment variable (or HERMES_HOME/.env entry) holding the API key; "" when none is needed */
  apiKeyEnv: string;
  /** the model asked for when neither `model.default` nor `/model` names one */
  defaultModel: string;
  /** the models' context window in tokens (the default of `model.context_length`) */
  contextLength?: number;
  /** extra HTTP headers sent with every request to this provider (never the key: that is `apiKeyEnv`) */
  headers?: Readonly<Record<string, string>>;
}
