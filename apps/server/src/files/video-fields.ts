/**
 * A file row's video fields on the wire (`duration`, `video_codec`, `audio_codec`: the schema's
 * `videoFileFields`), for the upload response, the details and the record alike. Null for
 * anything that is not a probed video (src/uploads/probe-uploaded-video.ts).
 */
import type { File } from "../generated/prisma/client.js";

export function toVideoFields(row: Pick<File, "duration" | "videoCodec" | "audioCodec">) {
  return { duration: row.duration, video_codec: row.videoCodec, audio_codec: row.audioCodec };
}
