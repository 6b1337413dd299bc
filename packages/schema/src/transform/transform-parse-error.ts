/**
 * A transformation that breaks the grammar. The message names the offending directive as
 * written, `"q_200: quality must be 1..100"`, so it can be returned as is in a 400; errors that
 * concern the whole string or a step (`"step 2 is empty"`) have no directive.
 */
export class TransformParseError extends Error {
  override readonly name = "TransformParseError";
  /** The raw directive, e.g. `q_200`; undefined when the error is not about one directive. */
  readonly directive: string | undefined;
  /** What is wrong, without the directive, e.g. `quality must be 1..100`. */
  readonly reason: string;

  constructor(reason: string, directive?: string) {
    super(directive === undefined ? reason : `${directive}: ${reason}`);
    this.directive = directive;
    this.reason = reason;
  }
}
