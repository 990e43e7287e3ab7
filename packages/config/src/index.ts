// @hermes/config: HERMES_HOME and profiles, .env, config.yaml (schema, load, edit), secrets.

export { ConfigError, type ConfigErrorCode, type ConfigIssue } from './config-error.js';
// Homes, profiles and file layout
export { type ConfigPaths, configPaths } from './config-paths.js';
export type { ConfigWarning, ConfigWarningKind } from './config-warning.js';
export type { DeepReadonly } from './deep-freeze.js';
// .env
export { applyDotEnv, type DotEnvResult, loadDotEnv } from './dot-env.js';
// Small helpers other packages reuse for their own warnings
export { closestMatch, editDistance } from './edit-distance.js';
export { ENV_OVERRIDES, type EnvOverride } from './env-overrides.js';
export { envRefs, expandEnvRefs } from './env-refs.js';
// The config object
export type {
  ConfigLogLevel,
  EnvLike,
  HermesConfig,
  PlatformConfig,
  ShellHookConfig,
} from './hermes-config.js';
export {
  DEFAULT_PROFILE,
  isValidProfileName,
  listProfiles,
  type ProfileInfo,
  type ResolvedHome,
  resolveHome,
} from './home.js';
// Loading, overrides, problems
export { defaultConfig, type LoadConfigResult, loadConfig } from './load-config.js';
// Owner-only directories (HERMES_HOME and what is created in it)
export { homeModeWarning, makePrivateDir, makePrivateParent, PRIVATE_DIR_MODE } from './private-dir.js';
export { renderConfig } from './render-config.js';
// Secrets
export {
  isSecretName,
  MIN_SECRET_LENGTH,
  type SecretValuesOptions,
  secretValues,
  urlCredentials,
} from './secret-values.js';
// Editing and showing
export { type SetConfigValueResult, setConfigValue } from './set-config-value.js';
// tts.providers: the placeholders and formats a command backend may use
export { TTS_COMMAND_FORMATS, TTS_COMMAND_PLACEHOLDERS } from './tts-command-schema.js';
