/**
 * The checks `<TroveUploader>` makes before sending anything: the `accept` list (the same syntax
 * as `<input accept>`, which a drop or a paste bypasses) and a largest size. The server judges
 * the sniffed content again; these only spare a doomed upload.
 */

export type RejectionReason = "type" | "size";

export interface FileRejection {
  file: File;
  reason: RejectionReason;
  /** One sentence for the page, naming the file. */
  message: string;
}

/** `accept` as `<input accept>` reads it: MIME types, `type/*` wildcards and `.ext` suffixes. */
export function matchesAccept(file: Pick<File, "name" | "type">, accept: string | undefined): boolean {
  const patterns = (accept ?? "")
    .split(",")
    .map((pattern) => pattern.trim().toLowerCase())
    .filter(Boolean);
  if (patterns.length === 0) return true;
  const name = file.name.toLowerCase();
  const type = file.type.toLowerCase();
  return patterns.some((pattern) => {
    if (pattern.startsWith(".")) return name.endsWith(pattern);
    if (pattern.endsWith("/*")) return type.startsWith(pattern.slice(0, -1));
    return type === pattern;
  });
}

export function checkFile(
  file: File,
  limits: { accept?: string | undefined; maxSize?: number | undefined },
  formatSize: (bytes: number) => string,
): FileRejection | undefined {
  if (!matchesAccept(file, limits.accept)) {
    return { file, reason: "type", message: `${file.name}: this type of file is not accepted here` };
  }
  if (limits.maxSize !== undefined && file.size > limits.maxSize) {
    return {
      file,
      reason: "size",
      message: `${file.name} is ${formatSize(file.size)}: the limit is ${formatSize(limits.maxSize)}`,
    };
  }
  return undefined;
}
