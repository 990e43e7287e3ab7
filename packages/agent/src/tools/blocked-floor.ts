/**
 * The always-blocked floor: commands the terminal tool never runs, whatever the approval and even
 * under `--yolo` (no prompt is shown; the model is told why). It is a narrow list of commands with
 * no everyday use that destroy the machine or its data: the rest of the dangerous list stays a
 * question for the user (`dangerous-patterns.ts`). Like that list it is a speed bump, not a
 * sandbox: a command can be written in ways no pattern sees.
 */
import { CRITICAL_PATH, DANGEROUS_PATTERNS, type DangerousPattern, SEG } from './dangerous-patterns.js';

const dangerous = (key: string): DangerousPattern => {
  const found = DANGEROUS_PATTERNS.find((p) => p.key === key);
  if (!found) throw new Error(`no dangerous pattern ${key}`);
  return found;
};

export const BLOCKED_FLOOR: readonly DangerousPattern[] = [
  {
    // rm_rf without its wildcard half (`rm -rf ./build/*` stays a question)
    key: 'rm_root',
    regex: new RegExp(
      String.raw`\brm\b(?=${SEG}\s(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)\b)(?=${SEG}\s${CRITICAL_PATH})`,
    ),
    description: 'recursive delete of /, ~ or a top-level system directory',
    examples: [
      'rm -rf /',
      'rm -rf --no-preserve-root /',
      'rm -rf ~',
      'rm -fr "$HOME"',
      'rm -r --force /usr',
      'rm -rf /*',
    ],
  },
  dangerous('mkfs'),
  dangerous('dd_device'),
  dangerous('write_block_device'),
  dangerous('fork_bomb'),
  dangerous('chmod_root'),
  dangerous('chown_root'),
];
