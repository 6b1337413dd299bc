// TypeScript 5.9 under another name: TypeScript 7, this package's `tsc`, has no compiler API.
import ts from "typescript-api";

/** A regular expression whose pattern is known from the source alone. */
export interface RegexLiteral {
  kind: "literal";
  file: string;
  /** 1-based. */
  line: number;
  /** As `RegExp.prototype.source` would give it. */
  source: string;
  flags: string;
}

/** A `RegExp(...)` whose pattern is computed: no checker can see it, so a person reviews it. */
export interface DynamicRegex {
  kind: "dynamic";
  file: string;
  line: number;
  /** The pattern argument as written, e.g. a template literal. */
  expression: string;
}

export type FoundRegex = RegexLiteral | DynamicRegex;

/**
 * Every regular expression a TypeScript file builds: `/.../flags` literals, and `RegExp(...)`
 * with or without `new`. A string literal pattern (with an optional string literal for flags)
 * counts as a literal; anything else is reported as dynamic rather than silently skipped.
 */
export function findRegexes(file: string, text: string): FoundRegex[] {
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: FoundRegex[] = [];
  const lineOf = (node: ts.Node) =>
    sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1;

  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      // The scanner hands back the literal as written: `/source/flags`, flags never contain `/`.
      const written = (node as ts.RegularExpressionLiteral).text;
      const close = written.lastIndexOf("/");
      found.push({
        kind: "literal",
        file,
        line: lineOf(node),
        source: written.slice(1, close),
        flags: written.slice(close + 1),
      });
    } else if (isRegExpConstruction(node)) {
      const [pattern, flags] = node.arguments ?? [];
      if (pattern !== undefined && isStringLike(pattern) && (flags === undefined || isStringLike(flags))) {
        found.push({
          kind: "literal",
          file,
          line: lineOf(node),
          source: pattern.text,
          flags: flags?.text ?? "",
        });
      } else {
        found.push({
          kind: "dynamic",
          file,
          line: lineOf(node),
          expression: pattern?.getText(sourceFile) ?? "",
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

function isRegExpConstruction(node: ts.Node): node is ts.NewExpression | ts.CallExpression {
  return (
    (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
    ts.isIdentifier(node.expression) &&
    node.expression.text === "RegExp"
  );
}

function isStringLike(node: ts.Expression): node is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);
}
