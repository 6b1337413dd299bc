/**
 * Sources: validation, secrets at rest, masking, PATCH merge, names and former names, persistence
 * and the delivery host's lookup (see each file).
 *
 * Reading from a source's origin (the readers of each source type, and the copies kept in
 * Trove's storage) is ./origins/, the one home of the concept beside the rows it reads with; its
 * manual is ./origins/origin-reader.ts.
 */
export * from "./configuration-secrets.js";
export * from "./find-delivery-source.js";
export * from "./mask-configuration.js";
export * from "./merge-configuration.js";
export * from "./serialize-source.js";
export * from "./source-names.js";
export * from "./source-service.js";
export * from "./validate-source-body.js";
