/** The server's video engine (issue #33): find ffmpeg, sniff, probe and transcode a video. */
export { locateVideoTools, type VideoTools } from "./locate-video-tools.js";
export { probeVideo, type VideoProbe } from "./probe-video.js";
export { sniffVideoContainer, VIDEO_SNIFF_BYTES, type VideoContainer } from "./sniff-video-container.js";
export { type TranscodeJob, transcodeVideo, type VideoLog } from "./transcode-video.js";
export { VideoInputError, VideoRenderError } from "./video-errors.js";
export { resolveVideoLimits, type VideoLimits } from "./video-limits.js";
export { type VideoOutput, videoOutputOf } from "./video-output.js";
