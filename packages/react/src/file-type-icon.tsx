/**
 * The row's preview when there is no picture: a page with the file's kind drawn on it, as inline
 * SVG (no icon font, no request), coloured by `currentColor` so themes recolour it.
 */

export type FileKind = "image" | "video" | "audio" | "pdf" | "archive" | "text" | "link" | "other";

const BY_TYPE: Array<[RegExp, FileKind]> = [
  [/^image\//, "image"],
  [/^video\//, "video"],
  [/^audio\//, "audio"],
  [/^application\/pdf$/, "pdf"],
  [/zip|tar|gzip|x-7z|x-rar|compressed/, "archive"],
  [/^text\/|json|xml|csv|msword|officedocument|opendocument/, "text"],
];

const BY_EXTENSION: Record<string, FileKind> = {
  heic: "image",
  heif: "image",
  pdf: "pdf",
  zip: "archive",
  gz: "archive",
  tgz: "archive",
  md: "text",
  txt: "text",
  mov: "video",
  mkv: "video",
};

/** What a file is, from its type or, when the browser gave none, its extension. */
export function fileKind(file: Pick<File, "name" | "type">): FileKind {
  const type = file.type.toLowerCase();
  for (const [pattern, kind] of BY_TYPE) if (pattern.test(type)) return kind;
  return BY_EXTENSION[file.name.toLowerCase().split(".").pop() ?? ""] ?? "other";
}

/** The glyph drawn inside the page for each kind (24×24 coordinates). */
const GLYPHS: Record<FileKind, string> = {
  image: "M7 17l3-4 2 2.5 2-3 3 4.5z M9 10a1.3 1.3 0 1 0 0.01 0",
  video: "M10 11v6l5-3z",
  audio: "M11 16.5a1.5 1.5 0 1 1-1.5-1.5H11V10l4-1v2l-4 1z",
  pdf: "M8 12h8M8 14.5h8M8 17h5",
  archive: "M11 7h2v2h-2zM11 10h2v2h-2zM11 13h2v3h-2z",
  text: "M8 11h8M8 13.5h8M8 16h6",
  link: "M10.5 13.5l3-3M9.5 12l-1.5 1.5a2.1 2.1 0 0 0 3 3l1.5-1.5M14.5 12l1.5-1.5a2.1 2.1 0 0 0-3-3L11.5 9",
  other: "M9 12h6M9 15h6",
};

export function FileTypeIcon({ kind }: { kind: FileKind }) {
  return (
    <svg
      className="trove-upload__icon"
      data-kind={kind}
      viewBox="0 0 24 24"
      width="24"
      height="24"
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M6 3h8l4 4v14H6z M14 3v4h4" />
      <path d={GLYPHS[kind]} />
    </svg>
  );
}
