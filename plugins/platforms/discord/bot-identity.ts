/** Who the bot is, as far as normalizing messages needs: from READY. */
export interface BotIdentity {
  /** the bot user's id (also the application id of modern apps) */
  id: string;
  /** the name users see, for mentions left inside a sentence */
  name: string;
}
