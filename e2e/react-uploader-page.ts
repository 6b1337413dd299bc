/**
 * The page of e2e/react-uploader.browser.test.ts: <TroveUploader> and a gallery of <TroveImage>s
 * under StrictMode, bundled from the packages' sources. Written with createElement rather than
 * JSX so the e2e TypeScript setup needs nothing more.
 */
import { TroveImage, TroveProvider, TroveUploader, type UploadResult } from "@trove/react";
import { createElement as h, useState } from "react";
import { renderStrict } from "./support/react-root.js";

export interface ReactPageConfig {
  baseUrl: string;
  publicKey: string;
  assetsUrl: string;
  accept?: string;
  maxSize?: number;
  concurrency?: number;
  /** Parts of one multipart upload sent at once (the client's `concurrency`; SDK default 4). */
  partConcurrency?: number;
}

declare global {
  interface Window {
    troveReact: { mount(config: ReactPageConfig): void };
  }
}

function App({ config }: { config: ReactPageConfig }) {
  const [uploaded, setUploaded] = useState<UploadResult[]>([]);
  return h(
    "main",
    null,
    h("h1", null, "Upload to Trove"),
    h(TroveUploader, {
      accept: config.accept,
      maxSize: config.maxSize,
      concurrency: config.concurrency,
      hint: "Images and other files",
      onComplete: (result: UploadResult) => setUploaded((all) => [...all, result]),
    }),
    h(
      "ul",
      { className: "gallery", "aria-label": "Uploaded images" },
      uploaded
        .filter((result) => ["png", "jpg", "jpeg", "webp", "gif"].includes(result.format))
        .map((result) =>
          h(
            "li",
            { key: result.file_no },
            h(TroveImage, { src: result, alt: result.name, width: 160, height: 120, placeholder: "blur" }),
          ),
        ),
    ),
  );
}

window.troveReact = {
  mount(config) {
    renderStrict(
      h(
        TroveProvider,
        {
          baseUrl: config.baseUrl,
          publicKey: config.publicKey,
          assetsUrl: config.assetsUrl,
          clientOptions:
            config.partConcurrency === undefined ? undefined : { concurrency: config.partConcurrency },
        },
        h(App, { config }),
      ),
    );
  },
};
