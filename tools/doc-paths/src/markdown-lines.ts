/**
 * The lines of a Markdown document that the check reads: all of them, prose, inline code and
 * fenced blocks alike, except a fenced block whose info string says `doc-paths-ignore`
 * (```` ```ts doc-paths-ignore ````: code a reader copies into their own project, where the
 * paths are theirs, not ours).
 */
import type { TextLine } from "./comment-lines.js";
import { IGNORE_MARKER } from "./ignore-marker.js";

const FENCE = /^\s*(```+|~~~+)(.*)$/;

export function markdownLines(text: string): TextLine[] {
  const lines: TextLine[] = [];
  let fence: { marker: string; ignored: boolean } | null = null;
  text.split("\n").forEach((line, index) => {
    const opening = FENCE.exec(line);
    if (fence === null && opening) {
      fence = { marker: opening[1] ?? "```", ignored: (opening[2] ?? "").includes(IGNORE_MARKER) };
      return;
    }
    if (fence !== null && line.trim().startsWith(fence.marker) && line.trim().replace(/[`~]/g, "") === "") {
      fence = null;
      return;
    }
    if (fence?.ignored) return;
    lines.push({ line: index + 1, text: line });
  });
  return lines;
}
