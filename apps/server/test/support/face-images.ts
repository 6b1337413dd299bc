import { fileURLToPath } from "node:url";

/**
 * fixtures/astronaut-left.jpg (fixtures/README.md): 1024×512, a public-domain NASA portrait on
 * the left half, a plain grey right half. The face as the detector finds it, in source pixels
 * (measured once; a detector box moves by a few pixels between runtimes, so tests allow slack).
 */
export const FACE_FIXTURE_PATH = fileURLToPath(new URL("./fixtures/astronaut-left.jpg", import.meta.url));
export const FACE_FIXTURE_SIZE = { width: 1024, height: 512 };
export const FIXTURE_FACE = { left: 150, top: 72, width: 140, height: 120 };
