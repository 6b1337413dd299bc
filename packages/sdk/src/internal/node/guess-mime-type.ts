// For file paths, which carry no type of their own (a browser File has the one the browser took
// from its extension). The types a media library mostly sees; anything else is sent as
// application/octet-stream, and the server sniffs the content either way. A caller who knows
// better passes `contentType`.
const BY_EXTENSION: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  svg: "image/svg+xml",
  heic: "image/heic",
  tif: "image/tiff",
  tiff: "image/tiff",
  mp4: "video/mp4",
  mov: "video/quicktime",
  webm: "video/webm",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  pdf: "application/pdf",
  zip: "application/zip",
  json: "application/json",
  txt: "text/plain",
};

export function guessMimeType(fileName: string): string {
  const extension = fileName.slice(fileName.lastIndexOf(".") + 1).toLowerCase();
  return (fileName.includes(".") && BY_EXTENSION[extension]) || "application/octet-stream";
}
