import { troveProject } from "../../vitest.shared";

// Suites that need a service which is not always there are separate files, included only when
// the service is named: *.postgres.test.ts with TROVE_TEST_DATABASE_URL (.ci/run starts
// PostgreSQL 15), *.minio.test.ts with MINIO_ENDPOINT. So a run never reports skipped tests.
const exclude = ["**/node_modules/**", "**/dist/**"];
if (!process.env.TROVE_TEST_DATABASE_URL) exclude.push("**/*.postgres.test.ts");
if (!process.env.MINIO_ENDPOINT) exclude.push("**/*.minio.test.ts");

export default troveProject("server", {
  globalSetup: ["./test/global-setup.ts"],
  // Files share a worker's module graph instead of importing the server afresh each (about half
  // the project's time went to imports). They keep no state between files that another reads:
  // each test app has its own database, storage directory and settings. The one process-wide
  // setting is libvips' codec block (src/media/block-unused-codecs.ts), so no test draws SVG.
  isolate: false,
  testTimeout: 30_000,
  hookTimeout: 60_000,
  exclude,
});
