/** Who the bot is, as far as normalizing messages needs: from getMe. */
export interface BotIdentity {
  id: number;
  /** without the leading @ */
  username: string;
}
