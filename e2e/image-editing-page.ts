/**
 * The page of e2e/image-editing.browser.test.ts: @trove/react's editing functions and
 * <ImageEditor>, bundled from the package's source. Files cross from Node as base64; what the
 * test reads back (sizes, types, a few pixels) is measured here in the page.
 */
import {
  type AspectPreset,
  ImageEditor,
  type ImageEditorStrings,
  prepareImage,
  readImageSize,
} from "@trove/react";
import { createElement as h } from "react";
import { renderStrict } from "./support/react-root.js";

export interface FileSummary {
  name: string;
  type: string;
  size: { width: number; height: number } | null;
  base64: string;
}

declare global {
  interface Window {
    troveEditing: {
      /** A JPEG or PNG drawn here: left half red, right half blue. */
      draw(width: number, height: number, type: string): Promise<string>;
      prepare(
        base64: string,
        name: string,
        type: string,
        options: { maxWidth?: number; maxHeight?: number; quality?: number },
      ): Promise<FileSummary & { unchanged: boolean }>;
      openEditor(
        base64: string,
        name: string,
        type: string,
        aspects?: AspectPreset[],
        strings?: Partial<Omit<ImageEditorStrings, "cropSize">>,
      ): void;
      /** The editor's outcome once it is there: its file, or "cancelled". */
      outcome: Promise<FileSummary | "cancelled">;
      /** RGB at (x, y) of the editor's result. */
      pixel(x: number, y: number): Promise<[number, number, number]>;
    };
  }
}

const toFile = (base64: string, name: string, type: string) =>
  new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name, { type });

async function toBase64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

async function summary(file: File): Promise<FileSummary> {
  return { name: file.name, type: file.type, size: await readImageSize(file), base64: await toBase64(file) };
}

let settle: (outcome: FileSummary | "cancelled") => void = () => {};
let edited: File | undefined;

window.troveEditing = {
  async draw(width, height, type) {
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext("2d") as OffscreenCanvasRenderingContext2D;
    context.fillStyle = "#ff0000";
    context.fillRect(0, 0, width / 2, height);
    context.fillStyle = "#0000ff";
    context.fillRect(width / 2, 0, width / 2, height);
    return toBase64(await canvas.convertToBlob({ type, quality: 0.95 }));
  },
  async prepare(base64, name, type, options) {
    const file = toFile(base64, name, type);
    const prepared = await prepareImage(file, options);
    return { ...(await summary(prepared)), unchanged: prepared === file };
  },
  openEditor(base64, name, type, aspects, strings) {
    window.troveEditing.outcome = new Promise((resolve) => {
      settle = resolve;
    });
    const file = toFile(base64, name, type);
    renderStrict(
      h(ImageEditor, {
        file,
        ...(aspects ? { aspects } : {}),
        ...(strings ? { strings } : {}),
        onDone: (result: File) => {
          edited = result;
          void summary(result).then(settle);
        },
        onCancel: () => settle("cancelled"),
      }),
    );
  },
  outcome: Promise.resolve("cancelled"),
  async pixel(x, y) {
    if (!edited) throw new Error("no edited file yet");
    const bitmap = await createImageBitmap(edited);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext("2d") as OffscreenCanvasRenderingContext2D;
    context.drawImage(bitmap, 0, 0);
    const [r, g, b] = context.getImageData(x, y, 1, 1).data;
    return [r ?? 0, g ?? 0, b ?? 0];
  },
};
