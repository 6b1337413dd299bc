import sharp, { type Sharp } from "sharp";
import { describe, expect, it } from "vitest";
import { FACE_FIXTURE_PATH, FIXTURE_FACE } from "../../../test/support/face-images.js";
import { shapes } from "../../../test/support/test-images.js";
import { MediaError } from "../media-error.js";
import { detectFaces } from "./detect-faces.js";

async function rgb(image: Sharp) {
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The fixture at 640×320, where the face is at FIXTURE_FACE × 0.625. */
const fixture = () => rgb(sharp(FACE_FIXTURE_PATH).resize(640, 320));
const SCALE = 640 / 1024;

describe("detectFaces", () => {
  it("finds the one face of the fixture where it is, and nothing in a picture without one", async () => {
    const faces = await detectFaces(await fixture(), 30_000);
    expect(faces).toHaveLength(1);
    const [face] = faces;
    expect(face?.score).toBeGreaterThan(0.5);
    // Within a fifth of the face's size of where it was measured.
    const slack = FIXTURE_FACE.width * SCALE * 0.2;
    expect(Math.abs((face?.left ?? 0) - FIXTURE_FACE.left * SCALE)).toBeLessThan(slack);
    expect(Math.abs((face?.top ?? 0) - FIXTURE_FACE.top * SCALE)).toBeLessThan(slack);
    expect(Math.abs((face?.width ?? 0) - FIXTURE_FACE.width * SCALE)).toBeLessThan(slack);

    const noFace = await rgb(
      shapes(640, 400, "#3a6ea5", [
        { rect: { left: 80, top: 60, width: 200, height: 140 }, colour: "#e0c040" },
        { circle: { cx: 460, cy: 260, r: 90 }, colour: "#204020" },
      ]),
    );
    expect(await detectFaces(noFace, 30_000)).toEqual([]);
  });

  it("answers requests made at once, each with its own image's faces (one model, one job at a time)", async () => {
    const image = await fixture();
    const blank = await rgb(
      sharp({ create: { width: 320, height: 320, channels: 3, background: "#808080" } }),
    );
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => detectFaces(i % 2 === 0 ? image : blank, 30_000)),
    );
    expect(answers.map((faces) => faces.length)).toEqual([1, 0, 1, 0, 1, 0]);
  });

  it("refuses a detection that overruns its time limit, and the next one gets a fresh detector", async () => {
    const image = await fixture();
    // 1 ms cannot hold even the copy of the pixels to the worker: the job is refused, the
    // worker terminated.
    const refused = detectFaces(image, 1);
    await expect(refused).rejects.toBeInstanceOf(MediaError);
    await expect(refused).rejects.toMatchObject({
      code: "IMAGE_TOO_LARGE",
      message: expect.stringContaining("limit"),
    });
    expect(await detectFaces(image, 30_000)).toHaveLength(1);
  });
});
