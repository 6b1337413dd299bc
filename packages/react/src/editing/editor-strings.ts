/**
 * Every word `<ImageEditor>` shows or announces, in English; pass `strings` with the ones to
 * replace (any subset).
 */
export interface ImageEditorStrings {
  title: string;
  rotateLeft: string;
  rotateRight: string;
  /** The aspect buttons' group name. */
  aspect: string;
  /** The crop box's name, and how to move it with the keyboard. */
  cropArea: string;
  cropHelp: string;
  /** Announced and shown after every change: `cropSize(800, 800)`. */
  cropSize: (width: number, height: number) => string;
  apply: string;
  cancel: string;
  loading: string;
  /** Shown when the browser cannot decode the file. */
  unreadable: string;
}

export const ENGLISH_EDITOR_STRINGS: ImageEditorStrings = {
  title: "Edit image",
  rotateLeft: "Rotate left",
  rotateRight: "Rotate right",
  aspect: "Aspect ratio",
  cropArea: "Crop area",
  cropHelp: "Arrow keys move the crop area; Shift with an arrow key resizes it. Hold Alt for larger steps.",
  cropSize: (width, height) => `Crop ${width} × ${height} px`,
  apply: "Apply",
  cancel: "Cancel",
  loading: "Loading image…",
  unreadable: "This image cannot be edited in this browser.",
};

export interface AspectPreset {
  label: string;
  /** width / height, or null for a free crop. */
  ratio: number | null;
}

export const DEFAULT_ASPECTS: AspectPreset[] = [
  { label: "Free", ratio: null },
  { label: "1:1", ratio: 1 },
  { label: "4:3", ratio: 4 / 3 },
  { label: "16:9", ratio: 16 / 9 },
];
