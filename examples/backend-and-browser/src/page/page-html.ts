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

export function pageHtml(config: PageConfig): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="icon" href="data:," />
    <title>Trove · backend and browser</title>
    <style>
      body { font-family: system-ui, sans-serif; max-width: 48rem; margin: 2rem auto; padding: 0 1rem; }
      #files { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr)); gap: 1rem; }
      #files li { overflow-wrap: anywhere; font-size: 0.875rem; }
      #files img { width: 100%; aspect-ratio: 1; object-fit: cover; border-radius: 0.25rem; background: #8882; }
      progress { width: 100%; }
    </style>
    <script type="application/json" id="trove-config">${scriptJson(config)}</script>
    <script type="module" src="/app.js"></script>
  </head>
  <body>
    <h1>Upload, then list from the backend</h1>
    <p>This page holds no key. For each image it asks its backend for a one-file <strong>upload token</strong>
      (<code>POST /api/upload-token</code>), then uploads straight to Trove with it: images only, up to 10 MB, into
      <code>uploads/</code>. The list below comes from <code>/api/files</code>: the backend asks Trove with the
      <strong>private</strong> key, which never reaches the browser.</p>
    <input id="file-input" type="file" accept="image/*" multiple />
    <p id="status" role="status"></p>
    <progress id="progress" max="100" value="0" hidden></progress>
    <h2>Files</h2>
    <ul id="files"></ul>
  </body>
</html>
`;
}
