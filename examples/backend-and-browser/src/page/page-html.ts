/** What the page is allowed to know: public values only, no key of any kind. */
export interface PageConfig {
  baseUrl: string;
  assetsUrl: string;
}

/** JSON that is safe inside a <script> element (no `</script>` or `<!--` can appear). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

// Thumbnails are at most 9rem but never wider or taller than the image itself (`max-*` with
// `auto` sizes): a 40 px image stays 40 px instead of being enlarged and blurred.
const STYLE = `
      body { font-family: system-ui, sans-serif; max-width: 48rem; margin: 2rem auto; padding: 0 1rem; }
      [hidden] { display: none !important; }
      .problem { padding: 0.75rem; border-radius: 0.5rem; background: #ef444422; }
      #uploads { list-style: none; padding: 0; }
      .upload { display: grid; grid-template-columns: 3rem 1fr auto; gap: 0.25rem 0.75rem; align-items: center;
        grid-template-areas: "thumb name controls" "thumb bar status" "thumb detail detail";
        padding: 0.5rem 0; border-bottom: 1px solid #8884; }
      .upload .placeholder { grid-area: thumb; width: 3rem; height: 3rem; }
      .upload .name { grid-area: name; overflow-wrap: anywhere; }
      .upload progress { grid-area: bar; width: 100%; }
      .upload .status { grid-area: status; font-variant-numeric: tabular-nums; }
      .upload .controls { grid-area: controls; display: flex; gap: 0.25rem; }
      .upload .detail { grid-area: detail; font-size: 0.85rem; font-variant-numeric: tabular-nums; }
      .upload[data-state="failed"] .status, .upload[data-state="failed"] .detail { color: #dc2626; }
      /* A failed or cancelled bar is grey: it shows how far the upload got, not progress. */
      .upload[data-state="failed"] progress, .upload[data-state="cancelled"] progress { filter: grayscale(1); }
      .placeholder { display: grid; place-items: center; border-radius: 0.25rem; background: #8882;
        font-size: 0.75rem; font-weight: 600; }
      #files { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr)); gap: 1rem; }
      #files li { display: flex; flex-direction: column; gap: 0.25rem; overflow-wrap: anywhere; font-size: 0.875rem; }
      #files .preview { display: grid; place-items: center; height: 9rem; }
      #files .preview img { max-width: 100%; max-height: 9rem; width: auto; height: auto; border-radius: 0.25rem; }
      #files .preview .placeholder { width: 100%; height: 100%; }`;

export function pageHtml(config: PageConfig): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="icon" href="data:," />
    <title>Trove · backend and browser</title>
    <style>${STYLE}
    </style>
    <script type="application/json" id="trove-config">${scriptJson(config)}</script>
    <script type="module" src="/app.js"></script>
  </head>
  <body>
    <h1>Upload, then list from the backend</h1>
    <p>This page holds no key. For each image it asks its backend for a one-file <strong>upload token</strong>
      (<code>POST /api/upload-token</code>), then uploads straight to Trove with it: images only, up to 10 MB, into
      this browser's own folder. The list below comes from <code>/api/files</code>: the backend asks Trove with the
      <strong>private</strong> key, which never reaches the browser, for the files of this browser's folder only.</p>
    <input id="file-input" type="file" accept="image/*,.heic,.heif" multiple />
    <p id="total" hidden></p>
    <ul id="uploads" aria-live="polite"></ul>
    <h2>Your files</h2>
    <p id="files-problem" class="problem" role="alert" hidden></p>
    <ul id="files"></ul>
  </body>
</html>
`;
}
