/**
 * The part of papaparse's API the renderer uses, with the shapes of @types/papaparse. That package references
 * Node's types (for its stream parser), which would bring `Buffer` and `process` into the renderer's program;
 * renderer/tsconfig.json maps the module here instead.
 */
export interface ParseError {
  type: string;
  code: string;
  message: string;
  row?: number;
}

export interface ParseResult<T> {
  data: T[];
  errors: ParseError[];
  meta: { delimiter: string; linebreak: string; aborted: boolean; truncated: boolean; cursor: number };
}

export interface ParseConfig {
  delimiter?: string;
  newline?: string;
  quoteChar?: string;
  escapeChar?: string;
  preview?: number;
  skipEmptyLines?: boolean | 'greedy';
}

export interface UnparseConfig {
  delimiter?: string;
  newline?: string;
  quotes?: boolean | boolean[];
  quoteChar?: string;
  escapeChar?: string;
  escapeFormulae?: boolean | RegExp;
}

declare const Papa: {
  parse<T>(input: string, config?: ParseConfig): ParseResult<T>;
  unparse(data: readonly (readonly unknown[])[], config?: UnparseConfig): string;
};
export default Papa;
