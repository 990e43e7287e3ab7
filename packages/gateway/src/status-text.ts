/** The text of `/status`, `/model` and `/usage`. */
import type { PlatformState } from '@hermes/protocol';
import type { SessionsPort, TranscriptsPort } from './ports.js';

export interface StatusPorts {
  sessions: Pick<SessionsPort, 'activeByKey'>;
  transcripts: Pick<TranscriptsPort, 'count'>;
  model: string;
  platformStates(): Record<string, PlatformState>;
  busy(sessionKey: string): boolean;
}

export function statusText(ports: StatusPorts, sessionKey: string): string {
  const s = ports.sessions.activeByKey(sessionKey);
  const platforms = Object.entries(ports.platformStates())
    .map(([n, st]) => `${n}: ${st.state}`)
    .join(', ');
  return [
    `Session: ${s ? s.id : 'none yet'}${s ? ` (${ports.transcripts.count(s.id)} messages)` : ''}`,
    `Running: ${ports.busy(sessionKey) ? 'yes' : 'no'}`,
    `Model: ${ports.model}`,
    `Platforms: ${platforms}`,
  ].join('\n');
}

export function modelText(model: string): string {
  return `Model: ${model} (change it with: hermes config set model.default <id>)`;
}

export function usageText(ports: Pick<StatusPorts, 'sessions' | 'transcripts'>, sessionKey: string): string {
  const s = ports.sessions.activeByKey(sessionKey);
  return s ? `This session has ${ports.transcripts.count(s.id)} messages.` : 'No session yet.';
}
