/**
 * How a local file is named to ffprobe/ffmpeg, and the options that keep them to that file.
 *
 * - `file:` + an absolute path: a relative name with a colon (`http:x.mp4`) would otherwise be
 *   read as a protocol.
 * - `-protocol_whitelist file,pipe`: the input, and anything it references, may only be a local
 *   file or a pipe (no http, tcp, concat, hls, subfile, data…).
 * - `-f mov` / `-f matroska`: the demuxer the magic bytes chose (src/media/video/sniff-video-container.ts),
 *   never ffmpeg's own probing, which would take a playlist or an SDP file as one.
 * - For mov, `-enable_drefs 0` (the default, written out): external data references stay unread.
 */
import { resolve } from "node:path";
import type { VideoContainer } from "./sniff-video-container.js";

export const PROTOCOL_WHITELIST = ["-protocol_whitelist", "file,pipe"] as const;

export function toolFileUrl(path: string): string {
  return `file:${resolve(path)}`;
}

/** The input options of a sniffed container, to put right before `-i`. */
export function forcedDemuxer(container: VideoContainer): string[] {
  return container === "mp4" || container === "mov"
    ? ["-f", "mov", "-enable_drefs", "0"]
    : ["-f", "matroska"];
}
