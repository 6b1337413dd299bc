/**
 * What a delivery URL names: `/{workspace_no}/{path...}` a stored file (or a variant of one), and
 * `/{workspace_no}-{source name}/{path...}` a source's object. The format is @trove/schema's
 * (delivery-url-format.ts), which the server and the SDK build URLs with.
 */
import { isTransformStep } from "@trove/schema";
import { parseWorkspaceSegment } from "@trove/schema/zod-free";

export interface DeliveryTarget {
  workspaceNo: string;
  /** The source's name, for `{workspace_no}-{source name}` paths. */
  origin?: string;
  /**
   * Everything after the first segment, decoded, except its leading transformation steps, which
   * stay as written: their values are percent-encoded text (`l_text:arial_20:a%2Cb`,
   * `l_image:logos%2Fmark.png`) that only the grammar decodes, after it has split the step.
   */
  path: string;
}

/**
 * Splits `/{workspace_no}/{path...}` (raw, percent-encoded) into decoded parts, or null. A first
 * segment `{workspace_no}-{source name}` names a source (`origin`); workspace numbers hold no
 * hyphen, so the first hyphen is the separator.
 */
export function parseDeliveryPath(rawPath: string): DeliveryTarget | null {
  const segments = rawPath.replace(/^\/+/, "").split("/");
  if (segments.length < 2) return null;
  let decoded: string[];
  try {
    // Segment 0 is the workspace; the leading steps after it are the transform (./transform-path.ts).
    let steps = 1;
    while (steps < segments.length - 1 && isTransformStep(segments[steps] as string)) steps++;
    decoded = segments.map((segment, index) =>
      index > 0 && index < steps ? segment : decodeURIComponent(segment),
    );
  } catch {
    return null;
  }
  if (decoded.some((s) => s === "" || s === "." || s === ".." || s.includes("/") || s.includes("\0")))
    return null;
  const [first = "", ...rest] = decoded;
  const workspace = parseWorkspaceSegment(first);
  if (!workspace) return null;
  const path = rest.join("/");
  return workspace.source === undefined
    ? { workspaceNo: workspace.workspaceNo, path }
    : { workspaceNo: workspace.workspaceNo, origin: workspace.source, path };
}
