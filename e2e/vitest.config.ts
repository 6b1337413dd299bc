import { configDefaults } from "vitest/config";
import { troveProject } from "../vitest.shared";

// Suites that drive real Chromium run only with TROVE_BROWSER_TESTS=1 (.ci/run installs Debian's
// chromium and sets it). Without the flag they are left out of the project, not skipped, so
// `npm test` passes on a machine without a browser; with it, a missing browser fails them.
const BROWSER_SUITES = [
  "**/browser-upload.test.ts",
  "**/example-browser-upload.test.ts",
  "**/example-backend-and-browser.chromium.test.ts",
  // Every Chromium suite is named *.browser.test.ts.
  "**/*.browser.test.ts",
];
const browserTests = process.env.TROVE_BROWSER_TESTS === "1";
// examples/next-app's suite runs `next build` first: only with TROVE_NEXT_TESTS=1 too (its own CI stage).
const NEXT_SUITES = process.env.TROVE_NEXT_TESTS === "1" ? [] : ["**/next-app.browser.test.ts"];
// Suites that need a PostgreSQL server run only when TROVE_TEST_DATABASE_URL names one.
const POSTGRES_SUITES = process.env.TROVE_TEST_DATABASE_URL ? [] : ["**/*.postgres.test.ts"];

export default troveProject("e2e", {
  globalSetup: ["@trove/test-support/global-setup"],
  exclude: [
    ...configDefaults.exclude,
    ...(browserTests ? [] : BROWSER_SUITES),
    ...NEXT_SUITES,
    ...POSTGRES_SUITES,
  ],
  testTimeout: 180_000,
  hookTimeout: 120_000,
  // Each file starts its own server process; two at a time is what 2 cores carry.
  maxWorkers: 2,
  // Process-spawning suites run as a group after the in-process ones (vitest needs a group per
  // worker count).
  sequence: { groupOrder: 1 },
});
