// `@trove/schema/zod-free`: the constants, rules and wire types that need no zod at all, for
// the SDK's upload entry (code and declarations) and other bundles that must stay small.
export * from "./delivery-url-format.js";
export * from "./error-catalogue.js";
export * from "./error-codes.js";
export * from "./error-envelope.js";
export * from "./error-envelopes.js";
export * from "./error-groups.js";
export * from "./key-kind.js";
export * from "./route-table.js";
export type * from "./upload-wire-types.js";
