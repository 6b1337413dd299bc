/**
 * Which stored files the delivery host treats as video (issue #33): decided from the format and
 * MIME type recorded at upload (sniffed from the bytes, src/media/sniff-content.ts), never from
 * the file name. A file recorded as one of these still reaches ffmpeg only after its first bytes
 * are a whitelisted container (`sniffVideoContainer`): the record routes, the bytes decide.
 */

/** The stored `format` of the video containers delivery transforms. */
const VIDEO_FORMATS: ReadonlySet<string> = new Set(["mp4", "mov", "webm", "mkv"]);

/** Their MIME types, as file-type names them. */
const VIDEO_MIME_TYPES: ReadonlySet<string> = new Set([
  "video/mp4",
  "video/quicktime",
  "video/webm",
  "video/x-matroska",
]);

export function isVideoFile(file: { format: string; mimeType: string }): boolean {
  return VIDEO_FORMATS.has(file.format.toLowerCase()) || VIDEO_MIME_TYPES.has(file.mimeType.toLowerCase());
}
