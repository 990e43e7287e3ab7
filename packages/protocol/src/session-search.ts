/**
 * The full-text search over every stored transcript, as the store answers it and the agent's
 * `session_search` tool asks it: one hit type for both sides.
 */

/** One matching message of an earlier session; times are milliseconds since the epoch. */
export interface SessionSearchHit {
  sessionId: string;
  platform: string;
  title: string | null;
  /** when the session started */
  sessionCreatedAt: number;
  /** when the matching message was written */
  at: number;
  role: 'user' | 'assistant';
  /** the match in context, matched words in [brackets], cuts marked with … */
  snippet: string;
}

export interface SessionSearchOptions {
  limit: number;
  /** leave this session out (the one asking: its messages are already in the model's context) */
  excludeSessionId?: string;
  /** only sessions of this owner identity: those whose user's identity is it or is linked to it */
  owner?: string;
}
