/** Sources: validation, secrets at rest, masking, PATCH merge and persistence (see each file). */
export * from "./configuration-secrets.js";
export * from "./mask-configuration.js";
export * from "./merge-configuration.js";
export * from "./serialize-source.js";
export * from "./source-service.js";
export * from "./validate-source-body.js";
