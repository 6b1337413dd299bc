export { canonicalVideoTransform } from "./canonical-video-transform.js";
export { checkDeliveryTransform } from "./delivery-transform.js";
export { isVideoStep } from "./is-video-step.js";
export { isVideoTransform, parseVideoTransform } from "./parse-video-transform.js";
export {
  DEFAULT_STREAMING_LADDER,
  DEFAULT_STREAMING_STEP,
  parseStreamingLadder,
  streamingStepHeights,
} from "./streaming-ladder.js";
export {
  DEFAULT_BLUR_STRENGTH,
  MAX_STREAMING_HEIGHT,
  MAX_STREAMING_RENDITIONS,
  MAX_VIDEO_ASPECT_TERM,
  MAX_VIDEO_DIMENSION,
  MAX_VIDEO_OFFSET_SECONDS,
  MIN_STREAMING_HEIGHT,
  VIDEO_CROP_MODES,
  VIDEO_ROTATIONS,
  VIDEO_TRANSFORM_KEYS,
  type VideoBackground,
  type VideoTransform,
  type VideoTransformKey,
} from "./video-transform.js";
