// domino ships a declaration of the module 'domino' (its old name), not of '@mixmark-io/domino'.
declare module '@mixmark-io/domino' {
  /** An HTML document (the project compiles without the DOM lib: see to-dom.ts for the part used). */
  export function createDocument(html?: string, force?: boolean): unknown;
}
