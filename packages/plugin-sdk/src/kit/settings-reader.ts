/**
 * Reading `gateway.platforms.<platform>.*`: typed readers of optional settings, each throwing a
 * TypeError that names the full key and what was expected when the value has the wrong type.
 */

/** A platform's settings as the gateway hands them over (YAML values, unchecked). */
export type RawSettings = Readonly<Record<string, unknown>>;

/** Bounds of a whole-number setting; `unit` is named in the error (`a whole number of seconds ...`). */
export interface IntegerBounds {
  min: number;
  max?: number;
  unit?: string;
}

export interface SettingsReader {
  /** the full name of `key`: `gateway.platforms.<platform>.<key>` */
  keyName(key: string): string;
  /** a string; unset, null or '' give undefined */
  string(key: string): string | undefined;
  /** true or false; unset or null give `fallback` */
  boolean(key: string, fallback: boolean): boolean;
  /** a whole number within `bounds`; unset or null give `fallback` */
  integer(key: string, fallback: number, bounds: IntegerBounds): number;
  /** one of `values`; unset, null or '' give `fallback` */
  oneOf<T extends string>(key: string, values: readonly T[], fallback: T): T;
}

function expectedInteger({ min, max, unit }: IntegerBounds): string {
  const what = unit === undefined ? 'a whole number' : `a whole number of ${unit}`;
  return max === undefined ? `${what} of at least ${min}` : `${what} from ${min} to ${max}`;
}

/** Creates the reader of one platform's settings. */
export function settingsReader(settings: RawSettings, platform: string): SettingsReader {
  const keyName = (key: string): string => `gateway.platforms.${platform}.${key}`;
  const string = (key: string): string | undefined => {
    const value = settings[key];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') throw new TypeError(`${keyName(key)}: expected a string`);
    return value;
  };
  return {
    keyName,
    string,
    boolean(key, fallback) {
      const value = settings[key] ?? fallback;
      if (typeof value !== 'boolean') throw new TypeError(`${keyName(key)}: expected true or false`);
      return value;
    },
    integer(key, fallback, bounds) {
      const value = settings[key] ?? fallback;
      const inRange =
        typeof value === 'number' &&
        Number.isInteger(value) &&
        value >= bounds.min &&
        (bounds.max === undefined || value <= bounds.max);
      if (!inRange) throw new TypeError(`${keyName(key)}: expected ${expectedInteger(bounds)}`);
      return value;
    },
    oneOf(key, values, fallback) {
      const value = string(key) ?? fallback;
      const known = values.find((candidate) => candidate === value);
      if (known === undefined) {
        const listed = values.map((candidate) => `"${candidate}"`).join(', ');
        throw new TypeError(`${keyName(key)}: expected one of ${listed}, got "${value}"`);
      }
      return known;
    },
  };
}
