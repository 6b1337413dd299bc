/**
 * How a file arrived: stored as `files.upload_source` and sent as the wire's `upload_source`.
 * Not called a source in code: a source is an origin resource (src/sources/).
 */
export type UploadMethod = "direct" | "remote" | "multipart" | "tus";
