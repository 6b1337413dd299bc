/**
 * What Trove says about a finished tus upload: the last response (the final PATCH, or the POST that
 * carried the whole file) has `Trove-File-No` and `Trove-File-Url` headers. Both clients hand that
 * response over in their own shape, so this takes a header getter.
 */
export interface TroveFile {
  fileNo: string;
  /** The file's delivery URL. */
  url: string | undefined;
}

export function readTroveFile(header: (name: string) => string | null | undefined): TroveFile {
  const fileNo = header("Trove-File-No");
  if (!fileNo) {
    // A browser hides response headers CORS does not expose, so this is what a server or proxy
    // that strips `Access-Control-Expose-Headers` looks like.
    throw new Error("The upload finished but the response has no Trove-File-No header.");
  }
  return { fileNo, url: header("Trove-File-Url") ?? undefined };
}

/** Fills `target` with "<name> is file <no>" and a link to the delivery URL. */
export function showTroveFile(target: HTMLElement, name: string, file: TroveFile): void {
  target.dataset.fileNo = file.fileNo;
  const no = document.createElement("strong");
  no.className = "file-no";
  no.textContent = file.fileNo;
  target.replaceChildren(`${name} is file `, no);
  if (file.url) {
    const link = document.createElement("a");
    link.href = file.url;
    link.target = "_blank";
    link.rel = "noopener";
    link.textContent = "open";
    target.append(" · ", link);
  }
}
