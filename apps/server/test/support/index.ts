/** Test support: `createTestApp`, `seedFile`, `seedFolder`, `captureLogs`. See each file's header. */
export * from "./capture-logs.js";
export * from "./create-test-app.js";
export * from "./listening-test-app.js";
export * from "./probe-routes.js";
export * from "./second-instance.js";
export * from "./seed.js";
