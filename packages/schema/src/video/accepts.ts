import { TransformParseError } from "../transform/transform-parse-error.js";

/** Whether `parse` accepts text: false on its TransformParseError, any other error rethrown. */
export function accepts(parse: (text: string) => unknown, text: string): boolean {
  try {
    parse(text);
    return true;
  } catch (error) {
    if (error instanceof TransformParseError) return false;
    throw error;
  }
}
