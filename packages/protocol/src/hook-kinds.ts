/** Hook kinds: how the bus combines callback results, what a callback may return and what the caller gets. */

/** How the bus combines callback results for a hook. */
export type HookKind =
  /** return value ignored */
  | 'observe'
  /** first block wins (pre_tool_call) */
  | 'gate'
  /** first string wins */
  | 'transform'
  /** every context string, joined with a blank line in registration order */
  | 'inject'
  /** first recognised skip / rewrite / allow wins */
  | 'dispatch';

/** A pre_tool_call veto, normalised from either documented shape. */
export interface BlockDecision {
  action: 'block';
  message: string;
}

/** pre_gateway_dispatch outcome. */
export type DispatchDecision =
  | { action: 'skip'; reason: string }
  | { action: 'rewrite'; text: string }
  | { action: 'allow' };

/** What a callback may return, by kind (the bus parses untyped returns into these at the edge). */
export interface HookReturnByKind {
  observe: unknown;
  gate: BlockDecision | { decision: 'block'; reason: string } | null | undefined | void;
  transform: string | null | undefined | void;
  inject: string | { context: string } | null | undefined | void;
  dispatch: DispatchDecision | null | undefined | void;
}

/** What the bus returns to the caller, by kind. */
export interface HookOutcomeByKind {
  observe: undefined;
  gate: BlockDecision | null;
  transform: string | null;
  inject: string | null;
  dispatch: DispatchDecision;
}
