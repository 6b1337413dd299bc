/**
 * A stored video's record fields (issue #33): its frame as displayed (`width`, `height`), its
 * duration and its codecs, read by ffprobe (../media/video/) from the stored object's local file
 * once the upload is stored, before its row is written, so the upload response carries them.
 *
 * Never fails the upload, and hands ffprobe only what the video engine accepts:
 * - a file whose first bytes are not a whitelisted container (MP4/MOV, WebM/Matroska) is never
 *   probed (a `.mp4` name or a video/* type changes nothing);
 * - a driver without local files (S3): not probed, the fields stay null (streaming the object to
 *   a temporary file on every upload would cost what the record is not worth);
 * - no ffmpeg/ffprobe on this instance, or a probe that fails or times out: logged, fields null.
 * The transform limits on duration, frame size and frame rate do not apply here: they bound what
 * a transform may cost, while the record describes whatever was stored. ffprobe's own time
 * limit (TROVE_VIDEO_TIMEOUT_MS) still does.
 */
import { probeVideo } from "../media/video/probe-video.js";
import { sniffVideoContainer, VIDEO_SNIFF_BYTES } from "../media/video/sniff-video-container.js";
import { resolveVideoLimits } from "../media/video/video-limits.js";
import { readObjectHead } from "../storage/object-keys.js";
import { videoToolsFor } from "../video/video-tools.js";
import type { DescribedFile } from "./sniff-upload.js";
import type { UploadDeps } from "./upload-deps.js";

/** What sniffing calls the containers worth a look (the bytes then decide). */
const VIDEO_MIME_PREFIX = "video/";

export async function probeUploadedVideo(deps: UploadDeps, described: DescribedFile): Promise<void> {
  const { storage, video } = deps;
  if (!video || !storage.localPath || !described.mimeType.startsWith(VIDEO_MIME_PREFIX)) return;
  try {
    const container = sniffVideoContainer(await readObjectHead(storage, described.key, VIDEO_SNIFF_BYTES));
    if (!container) return;
    const { tools } = await videoToolsFor(video);
    if (!tools) return;
    const unbounded = Number.MAX_SAFE_INTEGER;
    const limits = {
      ...resolveVideoLimits(video),
      maxDurationSeconds: unbounded,
      maxPixels: unbounded,
      maxFrameRate: unbounded,
    };
    const probe = await probeVideo(tools, storage.localPath(described.key), container, limits);
    described.width = probe.width;
    described.height = probe.height;
    described.duration = probe.durationSeconds;
    described.videoCodec = probe.videoCodec;
    described.audioCodec = probe.audioCodec;
  } catch (error) {
    deps.log?.warn(
      { err: error, key: described.key },
      "video could not be probed; its video fields stay null",
    );
  }
}
