// `@trove/react/video`: <TroveVideo> and its URL helper, without the upload engine, for pages
// that play files but never upload. hls.js is not in this entry's code: it is imported on demand
// by browsers without native HLS. Everything here is also exported by `@trove/react`.
export type { FileRecordSize as TroveVideoFile } from "./file-record.js";
export { TroveVideo, type TroveVideoProps } from "./trove-video.js";
export { type VideoSourceOptions, type VideoSources, videoSources } from "./video-sources.js";
