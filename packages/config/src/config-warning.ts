/** Non-fatal config findings: unknown keys and unknown hook events. */

export type ConfigWarningKind = 'unknown_key' | 'unknown_hook_event';

export interface ConfigWarning {
  kind: ConfigWarningKind;
  file: string;
  line: number | null;
  /** dotted path of the offending key */
  key: string;
  /** the closest valid name, when one is close enough to be a likely typo */
  suggestion?: string;
  /** complete one-line text, location included */
  message: string;
}
