/**
 * A name without its trailing dots and whitespace: `"dog. . "` -> `"dog"`. Windows drops them
 * from file names anyway, and a name ending in a dot would read as an empty extension.
 *
 * The lookbehind is what keeps this linear: a plain `/[.\s]+$/` tries every position inside a long
 * run of dots or blanks that is followed by something else (`".".repeat(50_000) + "x"`), scanning
 * the rest of the run each time, which is quadratic in the name's length. Here only the position
 * where a run starts can begin a match.
 */
export function withoutTrailingDots(name: string): string {
  return name.replace(/(?<![.\s])[.\s]+$/, "");
}
