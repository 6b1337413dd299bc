// What Next's generated next-env.d.ts declares (it is written by `next dev`/`next build` and not
// committed): Next's own types and the module types of images imported by path.
/// <reference types="next" />
/// <reference types="next/image-types/global" />
