/**
 * The declaration build (tsup's `dts`) of the published packages that import other workspace
 * packages. It reads those packages' built declarations (turbo builds them first), not their
 * sources through the `dev-source` condition of tsconfig.base.json: each package's own typecheck
 * checks its sources, and checking them again in every dependent's declaration build tripled
 * @trove/mcp's. The declarations it writes are the same either way.
 */
export const DECLARATIONS = { compilerOptions: { customConditions: [] } };
