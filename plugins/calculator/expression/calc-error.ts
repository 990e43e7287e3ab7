/** Expression problems: thrown inside the parser and evaluator, returned to the model as `{"error": ...}`. */

export class CalcError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CalcError';
  }
}

/** A syntax error naming the 1-based character position (`pos` is the 0-based offset). */
export function syntaxError(pos: number, problem: string): CalcError {
  return new CalcError(`Syntax error at position ${pos + 1}: ${problem}`);
}
