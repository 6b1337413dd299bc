/**
 * The word that takes a line out of the check: a path on that line is an example, not a path of
 * this repository (`// products/shoe.jpg is the user's path  doc-paths-ignore`, or
 * `<!-- doc-paths-ignore -->` at the end of a Markdown line). On a Markdown fence's info string
 * it takes out the whole block.
 */
export const IGNORE_MARKER = "doc-paths-ignore";
