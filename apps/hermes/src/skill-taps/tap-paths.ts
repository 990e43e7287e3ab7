/** Where the skill taps live: HERMES_HOME/skill-taps/<name>/, each a git checkout. */
import { join } from 'node:path';

/** HERMES_HOME/skill-taps */
export const tapsDir = (home: string): string => join(home, 'skill-taps');

/** A tap's name: lowercase letters, digits, `-` and `_`, up to 64, starting with a letter or digit. */
export const TAP_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** The trust item id of a tap (`hermes trust approve tap:<name>`). */
export const tapItemId = (name: string): string => `tap:${name}`;
