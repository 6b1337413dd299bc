/** The body as JSON when it parses, else as text ("" when empty): what `TroveError.body` keeps. */
export function parseJsonOrText(text: string): unknown {
  if (text === "") return "";
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
