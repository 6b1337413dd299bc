// `@trove/react/image`: <TroveImage> and its URL helper, without the upload engine, for pages
// that show files but never upload. Everything here is also exported by `@trove/react`.
export {
  DEFAULT_WIDTHS,
  type ImageFormat,
  type ImageSourceOptions,
  type ImageSources,
  imageSources,
} from "./image-sources.js";
export { TroveImage, type TroveImageProps } from "./trove-image.js";
