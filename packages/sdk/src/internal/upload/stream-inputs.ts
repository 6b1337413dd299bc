import { readSmallStream } from "./read-stream.js";
import { streamFeed } from "./stream-feed.js";

/**
 * The code that uploads a ReadableStream: read in parts as they go out (bounded memory), or read
 * whole when small. createUploadClient does not carry it (issue #35: a page uploads Files, and
 * the upload entry's default path stays small); `streams: streamInputs` adds it. createClient and
 * the Node clients always have it.
 */
export interface StreamInputs {
  readonly feed: typeof streamFeed;
  readonly readSmall: typeof readSmallStream;
}

export const streamInputs: StreamInputs = { feed: streamFeed, readSmall: readSmallStream };
