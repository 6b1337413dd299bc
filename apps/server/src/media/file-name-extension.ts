/** Longest extension kept from a client's file name. */
export const MAX_EXTENSION_LENGTH = 16;

const EXTENSION = new RegExp(`^[a-z0-9]{1,${MAX_EXTENSION_LENGTH}}$`);

/**
 * The extension of a client-supplied file name, lowercased, or undefined when it has none or
 * it is not plain ASCII alphanumerics of at most 16 characters. Such an extension ends up in
 * storage keys, URLs and Content-Disposition, so anything unusual is refused rather than
 * cleaned up (cleaning `j-p-g` into `jpg` would invent a claim the client did not make).
 */
export function fileNameExtension(fileName: string | undefined): string | undefined {
  if (fileName === undefined) return undefined;
  // Browsers and some clients send a full path (C:\fakepath\x.png); only the last segment counts.
  const base = fileName.slice(Math.max(fileName.lastIndexOf("/"), fileName.lastIndexOf("\\")) + 1);
  const dot = base.lastIndexOf(".");
  // No dot, or only a leading one (".bashrc"): a name, not an extension.
  if (dot <= 0) return undefined;
  const extension = base.slice(dot + 1).toLowerCase();
  return EXTENSION.test(extension) ? extension : undefined;
}
