/** The syntax tree the parser builds and the evaluator walks; `pos` is the 0-based offset of the node's token. */
import type { Operator } from './tokenize.js';

export type ExprNode =
  | { type: 'number'; value: number; pos: number }
  | { type: 'name'; name: string; pos: number }
  | { type: 'unary'; op: '+' | '-'; operand: ExprNode; pos: number }
  | { type: 'binary'; op: Operator; left: ExprNode; right: ExprNode; pos: number }
  | { type: 'call'; name: string; args: ExprNode[]; pos: number };
