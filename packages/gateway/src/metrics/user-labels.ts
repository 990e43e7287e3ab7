/**
 * The `user` label of the `hermes_user_*` series: one value per identity key that ran a turn, up to
 * a bound; users after it share the value `other`, so a bot with very many users cannot grow
 * /metrics (and the gateway's memory: a series lives until the process ends) without limit.
 */
export const MAX_USER_SERIES = 1_000;
export const OTHER_USERS = 'other';

export class UserLabels {
  readonly #seen = new Set<string>();
  readonly #max: number;

  constructor(max = MAX_USER_SERIES) {
    this.#max = max;
  }

  /** `user` itself while it has a series or there is room for one, else `other`. */
  label(user: string): string {
    if (this.#seen.has(user)) return user;
    if (this.#seen.size >= this.#max) return OTHER_USERS;
    this.#seen.add(user);
    return user;
  }
}
