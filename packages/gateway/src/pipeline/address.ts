/** Stage 4, address rules: in groups only messages that mention or reply to the bot (or free-response chats). */
import type { MessageEvent } from '@hermes/protocol';
import { isAddressed } from './group-policy.js';

export type AddressOutcome = { kind: 'addressed' } | { kind: 'skipped'; reason: 'not_addressed' };

export function addressRules(event: MessageEvent, freeResponseChats: readonly string[]): AddressOutcome {
  return isAddressed(event, freeResponseChats) ? { kind: 'addressed' } : { kind: 'skipped', reason: 'not_addressed' };
}
