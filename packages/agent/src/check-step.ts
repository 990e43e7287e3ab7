/**
 * A model step as read from an untrusted endpoint: the SDK does not check types, so content or a
 * tool call field of the wrong type would travel on to the transcript (where SQLite refuses it) or
 * a platform. What is not a string (or null) is reported, and the request fails as a bad response.
 */
import type { ModelStep } from './model-client.js';

/** What is wrong with the step, or null. */
export function stepProblem(step: ModelStep): string | null {
  const content: unknown = step.content;
  if (content !== null && typeof content !== 'string') {
    return `message content of type ${Array.isArray(content) ? 'array' : typeof content}`;
  }
  for (const [i, call] of step.toolCalls.entries()) {
    const { id, function: fn } = call as { id: unknown; function: { name: unknown; arguments: unknown } | null };
    if (typeof id !== 'string') return `tool call ${i} without a string id`;
    if (fn === null || typeof fn !== 'object') return `tool call ${i} without a function`;
    if (typeof fn.name !== 'string') return `tool call ${i} with a name that is not a string`;
    if (typeof fn.arguments !== 'string') return `tool call ${i} with arguments that are not a JSON string`;
  }
  return null;
}
