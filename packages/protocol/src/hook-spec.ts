/**
 * One hook's entry in the table, typed from its payload: `defineHook<Payload>()({...})` rejects at
 * compile time a field list that misses or adds a payload key, and an example that is not a payload.
 */
import type { DispatchGateway, DispatchSessionStore } from './dispatch-handles.js';
import type { HookKind } from './hook-kinds.js';

export interface HookFieldDoc {
  /** key on the wire (shell-hook JSON, gateway context, docs): the seed's spelling */
  wire: string;
  type: string;
  description: string;
}

/** One doc entry per payload key, no more, no fewer. */
export type HookFields<P> = { readonly [F in keyof P]-?: HookFieldDoc };

/** Live handles (not plain data) that an example leaves as null. */
type HookHandle = DispatchGateway | DispatchSessionStore;

/** A payload with its live handles as null: what `hermes hooks test` and the docs can show. */
export type HookExample<P> = { [F in keyof P]: P[F] extends HookHandle ? null : P[F] };

export interface HookSpec<K extends HookKind = HookKind, P = Record<string, unknown>> {
  kind: K;
  fires: string;
  returns: string;
  /** one entry per payload key, camelCase key -> docs */
  fields: HookFields<P>;
  /** a synthetic payload for `hermes hooks test` and the docs */
  example: HookExample<P>;
}

/** Keys of T that are not keys of P, as errors. */
type NoExtraKeys<T, P> = { [X in Exclude<keyof T, keyof P>]: never };

/**
 * Builds the table entry of a hook whose payload is P. Curried so that P is given and the rest
 * inferred: `defineHook<HookPayloads['on_session_start']>()({ kind: 'observe', ... })`.
 */
export function defineHook<P>() {
  return <const K extends HookKind, F extends HookFields<P>, E extends HookExample<P>>(spec: {
    kind: K;
    fires: string;
    returns: string;
    fields: F & NoExtraKeys<F, P>;
    example: E & NoExtraKeys<E, P>;
  }): HookSpec<K, P> => spec;
}

/** A field doc: wire key, type as shown in the docs, meaning. */
export const field = (wire: string, type: string, description: string): HookFieldDoc => ({ wire, type, description });
