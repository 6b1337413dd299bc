/**
 * The page of e2e/react-uploader.browser.test.ts: <TroveUploader> and a gallery of <TroveImage>s
 * under StrictMode, bundled from the packages' sources. Written with createElement rather than
 * JSX so the e2e TypeScript setup needs nothing more.
 */
import {
  TroveImage,
  TroveProvider,
  TroveUploader,
  TroveUploaderModal,
  type TroveUploaderProps,
  type UploaderStrings,
  type UploadResult,
} from "@trove/react";
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
  dropTarget?: "zone" | "page";
  /** Only the plain-string entries: the config crosses from Node as JSON. */
  strings?: Partial<UploaderStrings>;
  /** The uploader in <TroveUploaderModal>, opened by an "Add files" button. */
  modal?: boolean;
}

declare global {
  interface Window {
    troveReact: { mount(config: ReactPageConfig): void };
  }
}

function App({ config }: { config: ReactPageConfig }) {
  const [uploaded, setUploaded] = useState<UploadResult[]>([]);
  const [open, setOpen] = useState(false);
  const props: TroveUploaderProps = {
    accept: config.accept,
    maxSize: config.maxSize,
    concurrency: config.concurrency,
    dropTarget: config.dropTarget,
    strings: config.strings,
    hint: "Images and other files",
    onComplete: (result: UploadResult) => setUploaded((all) => [...all, result]),
  };
  return h(
    "main",
    null,
    h("h1", null, "Upload to Trove"),
    config.modal
      ? [
          h("button", { key: "open", type: "button", onClick: () => setOpen(true) }, "Add files"),
          h(TroveUploaderModal, { key: "modal", ...props, open, onClose: () => setOpen(false) }),
        ]
      : h(TroveUploader, props),
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
