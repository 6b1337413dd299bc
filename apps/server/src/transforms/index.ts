/** Named transforms and strict mode: storage (CLI) and resolution (delivery). See each file's header. */
export * from "./named-transforms.js";
export * from "./resolve-transform.js";
