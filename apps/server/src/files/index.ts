/** File services behind routes/files.ts (spec endpoints 6 to 9); see each file's header. */
export * from "./clean-name.js";
export * from "./delete-objects-job.js";
export * from "./escape-like.js";
export * from "./file-counts.js";
export * from "./file-name.js";
export * from "./file-service.js";
export * from "./file-urls.js";
export * from "./find-file-to-sign.js";
export * from "./list-files.js";
export * from "./move-files.js";
export * from "./serialize-file.js";
