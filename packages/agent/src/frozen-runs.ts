/**
 * Figures of a run of frozen messages kept from one request to the next. The gateway's session
 * cache freezes the history it keeps (the same objects turn after turn, grown at the end), so what
 * a turn computes over its history (the request body's bytes, the token estimate) is the previous
 * turn's, extended by the messages added since. A run is recognized by its first message and
 * checked object by object (a pointer comparison per message: no hashing, no serializing); any
 * difference (a compressed history, another session) starts it over.
 */

/** How a run's figure is kept: a state extended one message at a time, read at any length. */
export interface RunFigure<S, V> {
  create(): S;
  push(state: S, message: object): void;
  /** the figure of the run's first `length` messages (at most as many as were pushed) */
  read(state: S, length: number): V;
}

interface Run<S> {
  refs: object[];
  state: S;
}

/** Keeps each run's figure; `read` answers for the run of frozen messages at `list[from]`. */
export class FrozenRuns<S, V> {
  readonly #runs = new WeakMap<object, Run<S>>();
  readonly #figure: RunFigure<S, V>;

  constructor(figure: RunFigure<S, V>) {
    this.#figure = figure;
  }

  /**
   * The run of frozen messages starting at `list[from]`: how long it is and its figure; null when
   * `list[from]` is not frozen. The messages the run already holds are recognized by identity (a
   * run only ever holds frozen messages); only those past it are asked whether they are frozen.
   */
  read(list: readonly object[], from: number): { length: number; value: V } | null {
    const first = list[from] as object;
    if (!Object.isFrozen(first)) return null;
    let run = this.#runs.get(first);
    let length = 0;
    if (run !== undefined) {
      const known = Math.min(run.refs.length, list.length - from);
      while (length < known && run.refs[length] === list[from + length]) length++;
      // the list goes on past a message the run holds otherwise: the run changed, start it over
      if (length < known && Object.isFrozen(list[from + length])) {
        run = undefined;
        length = 0;
      }
    }
    if (run === undefined) {
      run = { refs: [], state: this.#figure.create() };
      this.#runs.set(first, run);
    }
    if (length === run.refs.length) {
      while (from + length < list.length && Object.isFrozen(list[from + length])) {
        const message = list[from + length] as object;
        run.refs.push(message);
        this.#figure.push(run.state, message);
        length++;
      }
    }
    return { length, value: this.#figure.read(run.state, length) };
  }
}
