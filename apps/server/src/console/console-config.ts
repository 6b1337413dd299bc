/**
 * The console's settings (`config.console`), read from TROVE_CONSOLE, TROVE_CONSOLE_DIR and
 * TROVE_CONSOLE_IDLE_SECONDS (declared in src/config/settings.ts).
 *
 * The directory defaults to the console app built in this checkout (`apps/console/dist`, found
 * from the server's own file, src/ or dist/ alike, src/trove-checkout.ts); an installed
 * @trove/server serves the copy its tarball carries (`console/` beside `dist/`, put there by
 * scripts/bundle-console.mjs at build). TROVE_CONSOLE_DIR overrides both; without any, `/console`
 * answers the "not built" 404.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SETTINGS } from "../config/settings.js";
import { checkoutRootOf } from "../trove-checkout.js";

export interface ConsoleConfig {
  /** TROVE_CONSOLE: off makes every /console path 404 and ignores session cookies. */
  enabled: boolean;
  /** The built console's directory; undefined: none (outside a checkout, unset). */
  dir: string | undefined;
  /** TROVE_CONSOLE_IDLE_SECONDS: a session unused this long ends. */
  idleSeconds: number;
}

/** A session ends this long after sign-in however active it is. */
export const CONSOLE_SESSION_LIFETIME_MS = 12 * 3_600_000;

/**
 * `apps/console/dist` of the checkout this server runs from; outside a checkout, the package's own
 * bundled `console/` when it has one; else undefined.
 */
export function defaultConsoleDir(moduleUrl: string = import.meta.url): string | undefined {
  const root = checkoutRootOf(moduleUrl);
  if (root !== undefined) return join(root, "apps", "console", "dist");
  const bundled = bundledConsoleDir(moduleUrl);
  return bundled !== undefined && existsSync(join(bundled, "index.html")) ? bundled : undefined;
}

/** The package folder's `console/`: the module is in src/, dist/ or src/console/ of the package. */
function bundledConsoleDir(moduleUrl: string): string | undefined {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (let depth = 0; depth < 3; depth++) {
    if (existsSync(join(dir, "package.json"))) return join(dir, "console");
    dir = dirname(dir);
  }
  return undefined;
}

export function resolveConsoleConfig(input: Partial<ConsoleConfig> = {}): ConsoleConfig {
  return {
    enabled: input.enabled ?? SETTINGS.TROVE_CONSOLE.default === "on",
    dir: "dir" in input ? input.dir : defaultConsoleDir(),
    idleSeconds: input.idleSeconds ?? SETTINGS.TROVE_CONSOLE_IDLE_SECONDS.default,
  };
}
