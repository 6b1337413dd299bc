/**
 * Where this server runs from: a checkout of the Trove repository (apps/server inside the
 * monorepo, what `npm start` runs) or an installed `@trove/server` package.
 *
 * In a checkout, `npm start` keeps its data in the repository's `./.trove` (scripts/bootstrap.mjs),
 * and every `trove-server` command must find that same folder wherever it is run from: relative
 * to the current directory, `cd apps/server && trove-server keys create ...` would make a second,
 * empty database there. An installed package keeps the documented default (`./.trove` of the
 * working directory). TROVE_DATA_DIR overrides both.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The root package's name (package.json at the repository root). */
const MONOREPO_NAME = "trove-monorepo";
/** How a checkout runs `trove-server` from its root (the root package.json script). */
export const CHECKOUT_COMMAND = "npm run trove-server --";

function packageNameAt(dir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string }).name;
  } catch {
    return undefined;
  }
}

/** The repository root when `moduleUrl` lies in a Trove checkout's apps/server, else undefined. */
export function checkoutRootOf(moduleUrl: string = import.meta.url): string | undefined {
  // src/ or dist/ (where the bundle lives) up to the package, then apps/ up to the repository.
  let dir = dirname(fileURLToPath(moduleUrl));
  for (let depth = 0; depth < 3 && packageNameAt(dir) !== "@trove/server"; depth++) dir = dirname(dir);
  if (packageNameAt(dir) !== "@trove/server") return undefined;
  const root = dirname(dirname(dir));
  return existsSync(join(root, "pnpm-workspace.yaml")) && packageNameAt(root) === MONOREPO_NAME
    ? root
    : undefined;
}

/**
 * The environment a command runs with: in a checkout without TROVE_DATA_DIR, the repository's
 * `.trove`, the folder `npm start` uses.
 */
export function withCheckoutDataDir(
  env: NodeJS.ProcessEnv,
  moduleUrl: string = import.meta.url,
): NodeJS.ProcessEnv {
  const root = env.TROVE_DATA_DIR ? undefined : checkoutRootOf(moduleUrl);
  if (root === undefined) return env;
  return { ...env, TROVE_DATA_DIR: join(root, ".trove") };
}

/** How the operator runs `trove-server <args>` here: through the root script in a checkout. */
export function operatorCommand(args: string, moduleUrl: string = import.meta.url): string {
  return `${checkoutRootOf(moduleUrl) === undefined ? "trove-server" : CHECKOUT_COMMAND} ${args}`;
}
