/**
 * What a delivery URL names: `/{workspace_no}/{path...}` a stored file (or a variant of one), and
 * `/{workspace_no}-{source name}/{path...}` a source's object.
 */

export interface DeliveryTarget {
  workspaceNo: string;
  /** The source's name, for `{workspace_no}-{source name}` paths. */
  origin?: string;
  /** Everything after the first segment, decoded. */
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
    decoded = segments.map((segment) => decodeURIComponent(segment));
  } catch {
    return null;
  }
  if (decoded.some((s) => s === "" || s === "." || s === ".." || s.includes("/") || s.includes("\0")))
    return null;
  const [first = "", ...rest] = decoded;
  const hyphen = first.indexOf("-");
  const workspaceNo = hyphen === -1 ? first : first.slice(0, hyphen);
  if (!/^[A-Za-z0-9]{1,32}$/.test(workspaceNo)) return null;
  if (hyphen === -1) return { workspaceNo, path: rest.join("/") };
  const origin = first.slice(hyphen + 1);
  if (!/^[A-Za-z0-9_-]{1,255}$/.test(origin)) return null;
  return { workspaceNo, origin, path: rest.join("/") };
}
