/**
 * `--script NAME` of `hermes cron add|edit`: the file of HERMES_HOME/scripts it names (refused, exit
 * 2, when it is not a regular file directly there), and a note when the operator has not approved
 * it as it is now: the job's runs then go on without it until `hermes trust approve script:NAME`.
 */
import { approveHint, readScript, scriptName, scriptsDir } from '@hermes/gateway';
import { EXIT } from '@hermes/protocol';
import { CliExit } from '../cli-error.js';
import { scriptItemId } from '../trust/script-items.js';
import { TrustStore } from '../trust/trust-store.js';

export interface CliScript {
  /** what the job stores: the file name */
  name: string;
  /** said on stderr when the script is not approved as it is now; null when it is */
  note: string | null;
}

export function cliScript(home: string, given: string): CliScript {
  const dir = scriptsDir(home);
  const named = scriptName(dir, given);
  if ('error' in named) throw new CliExit(EXIT.USAGE, named.error);
  const read = readScript(dir, named.name);
  if ('error' in read) throw new CliExit(EXIT.USAGE, `script ${named.name}: ${read.error}`);
  const approved = TrustStore.load(home).store.find(scriptItemId(named.name))?.sha256;
  if (approved === read.sha256) return { name: named.name, note: null };
  const state = approved === undefined ? 'not approved' : 'changed since it was approved';
  return {
    name: named.name,
    note: `script ${named.name} is ${state}: the job's runs go on without it (and log why) until you run \`${approveHint(named.name)}\``,
  };
}
