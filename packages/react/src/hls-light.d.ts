// hls.js types only its full entry; `hls.js/light` is the same class without subtitles,
// alternate audio tracks and DRM, none of which a Trove ladder has.
declare module "hls.js/light" {
  import Hls from "hls.js";
  export default Hls;
}
