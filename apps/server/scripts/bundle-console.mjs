#!/usr/bin/env node
// Copies the built console (apps/console/dist) into this package's `console/` folder, which the
// published tarball carries ("files" in package.json), so an installed @trove/server serves
// /console as a checkout does. Runs after tsup in `build`; turbo builds @trove/console first (a
// devDependency of this package, so its `^build` comes before).
// Usage: node scripts/bundle-console.mjs
import { cpSync, existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const built = join(root, "..", "console", "dist");
const target = join(root, "console");

if (!existsSync(join(built, "index.html"))) {
  console.error(
    `bundle-console: ${built} has no index.html; build @trove/console first (pnpm --filter @trove/console build)`,
  );
  process.exit(1);
}
rmSync(target, { recursive: true, force: true });
cpSync(built, target, { recursive: true });
console.log(`bundle-console: copied the console into ${target}`);
