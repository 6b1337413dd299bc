/**
 * The comment lines of a source file, with their line numbers: what a reader of the code takes as
 * documentation. TypeScript's parser finds the comments (a `//` inside a string, a template or a
 * regular expression is not one); Prisma schema files have `//` and `///` comments only.
 */
// TypeScript 5.9 under another name: TypeScript 7, this package's `tsc`, has no compiler API.
import ts from "typescript-api";

export interface TextLine {
  /** 1-based. */
  line: number;
  text: string;
}

const SCRIPT_KINDS: Record<string, ts.ScriptKind> = {
  ".ts": ts.ScriptKind.TS,
  ".mts": ts.ScriptKind.TS,
  ".cts": ts.ScriptKind.TS,
  ".tsx": ts.ScriptKind.TSX,
  ".js": ts.ScriptKind.JS,
  ".mjs": ts.ScriptKind.JS,
  ".cjs": ts.ScriptKind.JS,
  ".jsx": ts.ScriptKind.JSX,
};

/** Whether `commentLines` reads this kind of file. */
export function hasComments(file: string): boolean {
  return file.endsWith(".prisma") || extensionOf(file) in SCRIPT_KINDS;
}

export function commentLines(file: string, text: string): TextLine[] {
  if (file.endsWith(".prisma")) return prismaCommentLines(text);
  const kind = SCRIPT_KINDS[extensionOf(file)];
  if (kind === undefined) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const ranges = new Map<number, number>();
  const collect = (list: ts.CommentRange[] | undefined) => {
    for (const range of list ?? []) ranges.set(range.pos, range.end);
  };
  const visit = (node: ts.Node) => {
    // A JSDoc node lies inside its comment: the comment itself is found from the code around it.
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  const lines: TextLine[] = [];
  for (const [pos, end] of [...ranges].sort(([a], [b]) => a - b)) {
    const first = source.getLineAndCharacterOfPosition(pos).line;
    text
      .slice(pos, end)
      .split("\n")
      .forEach((line, index) => {
        lines.push({ line: first + index + 1, text: line });
      });
  }
  return lines;
}

function prismaCommentLines(text: string): TextLine[] {
  const lines: TextLine[] = [];
  text.split("\n").forEach((line, index) => {
    const at = line.indexOf("//");
    if (at !== -1) lines.push({ line: index + 1, text: line.slice(at) });
  });
  return lines;
}

function extensionOf(file: string): string {
  const dot = file.lastIndexOf(".");
  return dot === -1 ? "" : file.slice(dot);
}
