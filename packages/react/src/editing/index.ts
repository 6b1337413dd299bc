// Image editing before upload: resize/re-encode (`prepareImage`), a crop-and-rotate dialog
// (`ImageEditor`) and the pixel size a policy judges (`readImageSize`). Browser-only at call time,
// safe to import on a server (nothing runs until called or rendered).
export {
  type AspectPreset,
  DEFAULT_ASPECTS as defaultEditorAspects,
  ENGLISH_EDITOR_STRINGS as englishEditorStrings,
  type ImageEditorStrings,
} from "./editor-strings.js";
export { ImageEditor, type ImageEditorProps } from "./image-editor.js";
export { canEditImage } from "./image-types.js";
export { type PrepareImageOptions, prepareImage } from "./prepare-image.js";
export { readImageSize } from "./read-image-size.js";
