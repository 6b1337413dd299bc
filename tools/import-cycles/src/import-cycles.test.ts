import { fileURLToPath } from "node:url";
import { parseCircular, parseDependencyTree } from "dpdm";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/**
 * The source trees that must have no import cycle. `import type` counts: a cycle of types is
 * still two modules that cannot be understood one without the other, and the first value
 * import added along it turns it into an initialisation-order bug.
 */
const SCOPES = ["packages/*/src/**/*.ts", "apps/server/src/**/*.ts"];

/** Code the project does not write (Prisma's client cycles through its own namespace). */
const NOT_OURS = /\/node_modules\/|\/generated\//;

describe("import cycles", () => {
  it.each(SCOPES)("none in %s", async (scope) => {
    const tree = await parseDependencyTree(scope, {
      context: ROOT,
      cwd: ROOT,
      exclude: NOT_OURS,
      // Keep `import type`: see SCOPES.
      transform: false,
      skipDynamicImports: false,
    });
    expect(Object.keys(tree).length).toBeGreaterThan(50);
    const cycles = parseCircular(tree).map((cycle) => [...cycle, cycle[0]].join(" → "));
    expect(cycles).toEqual([]);
  });

  it("finds a cycle when there is one", async () => {
    const tree = await parseDependencyTree("tools/import-cycles/src/fixture-cycle/*.ts", {
      context: ROOT,
      cwd: ROOT,
      transform: false,
      skipDynamicImports: false,
    });
    expect(parseCircular(tree)).toHaveLength(1);
  });
});
