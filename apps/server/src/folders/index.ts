/**
 * Folder services behind routes/folders.ts (spec endpoints 10 to 13), and `ensureFolderPath`
 * for the upload routes (./ensure-folder-path.ts). See each file's header.
 */
export * from "./ensure-folder-path.js";
export * from "./folder-path.js";
export * from "./folder-service.js";
export * from "./insert-folder.js";
export * from "./serialize-folder.js";
