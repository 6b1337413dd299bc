/**
 * The console's settings (`config.console`), read from TROVE_CONSOLE, TROVE_CONSOLE_DIR and
 * TROVE_CONSOLE_IDLE_SECONDS (declared in src/config/settings.ts).
 *
 * The directory defaults to the console app built in this checkout (`apps/console/dist`, found
 * from the server's own file, src/ or dist/ alike, src/trove-checkout.ts); an installed
 * @trove/server has none unless TROVE_CONSOLE_DIR names one, and `/console` then answers the
 * "not built" 404.
 */
import { join } from "node:path";
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

/** `apps/console/dist` of the checkout this server runs from, or undefined. */
export function defaultConsoleDir(moduleUrl?: string): string | undefined {
  const root = checkoutRootOf(moduleUrl);
  return root === undefined ? undefined : join(root, "apps", "console", "dist");
}

export function resolveConsoleConfig(input: Partial<ConsoleConfig> = {}): ConsoleConfig {
  return {
    enabled: input.enabled ?? SETTINGS.TROVE_CONSOLE.default === "on",
    dir: "dir" in input ? input.dir : defaultConsoleDir(),
    idleSeconds: input.idleSeconds ?? SETTINGS.TROVE_CONSOLE_IDLE_SECONDS.default,
  };
}
