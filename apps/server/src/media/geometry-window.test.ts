import { describe, expect, it } from "vitest";
import {
  coverWindowSize,
  gravityAnchor,
  placeWindow,
  scaledSize,
  shrinkBox,
  sideInPixels,
  wholeWindow,
  zoomWindow,
} from "./geometry-window.js";

const photo = { width: 1600, height: 1000 };

describe("sideInPixels", () => {
  it("reads a fraction of the source, rounded half up, at least 1 px, then times dpr", () => {
    expect(sideInPixels(0.5, 401, 1)).toBe(201); // 200.5 → 201
    expect(sideInPixels(0.75, 1000, 1)).toBe(750);
    expect(sideInPixels(0.01, 10, 1)).toBe(1); // 0.1 → at least 1
    expect(sideInPixels(300, 1000, 1)).toBe(300);
    expect(sideInPixels(300, 1000, 2)).toBe(600);
    expect(sideInPixels(301, 1000, 0.5)).toBe(151); // 150.5 → 151
    expect(sideInPixels(0.5, 1000, 2)).toBe(1000);
    expect(sideInPixels(undefined, 1000, 2)).toBeUndefined();
  });
});

describe("no enlargement", () => {
  it("shrinks a box the source cannot fill, keeping its ratio", () => {
    expect(shrinkBox({ width: 400, height: 400 }, { width: 300, height: 300 }, false)).toEqual({
      width: 300,
      height: 300,
    });
    expect(shrinkBox({ width: 1920, height: 1080 }, photo, false)).toEqual({ width: 1600, height: 900 });
    expect(shrinkBox({ width: 800, height: 600 }, photo, false)).toEqual({ width: 800, height: 600 });
    expect(shrinkBox({ width: 1920, height: 1080 }, photo, true)).toEqual({ width: 1920, height: 1080 });
  });

  it("caps a proportional scale at 1 unless upscale", () => {
    expect(scaledSize(photo, 1920 / 1600, false)).toEqual(photo);
    expect(scaledSize(photo, 1920 / 1600, true)).toEqual({ width: 1920, height: 1200 });
    expect(scaledSize(photo, 0.25, false)).toEqual({ width: 400, height: 250 });
  });
});

describe("windows", () => {
  it("the largest window of a ratio inside the source", () => {
    expect(coverWindowSize(photo, { width: 100, height: 100 })).toEqual({ width: 1000, height: 1000 });
    expect(coverWindowSize(photo, { width: 1600, height: 900 })).toEqual({ width: 1600, height: 900 });
  });

  it("places by gravity", () => {
    const size = { width: 1000, height: 1000 };
    expect(placeWindow(size, photo, { kind: "gravity", gravity: "c" })).toMatchObject({ left: 300, top: 0 });
    expect(placeWindow(size, photo, { kind: "gravity", gravity: "l" })).toMatchObject({ left: 0 });
    expect(placeWindow(size, photo, { kind: "gravity", gravity: "br" })).toMatchObject({ left: 600, top: 0 });
  });

  it("centres on a point, clamped to stay inside", () => {
    const size = { width: 200, height: 200 };
    expect(placeWindow(size, photo, { kind: "point", point: { x: 800, y: 500 } })).toEqual({
      ...size,
      left: 700,
      top: 400,
    });
    expect(placeWindow(size, photo, { kind: "point", point: { x: 10, y: 20 } })).toMatchObject({
      left: 0,
      top: 0,
    });
    expect(placeWindow(size, photo, { kind: "point", point: { x: 65535, y: 65535 } })).toMatchObject({
      left: 1400,
      top: 800,
    });
  });

  it("zooms about the anchor's point of the window", () => {
    const whole = wholeWindow(photo);
    expect(zoomWindow(whole, 2, { kind: "gravity", gravity: "c" })).toEqual({
      left: 400,
      top: 250,
      width: 800,
      height: 500,
    });
    expect(zoomWindow(whole, 2, { kind: "gravity", gravity: "t" })).toEqual({
      left: 400,
      top: 0,
      width: 800,
      height: 500,
    });
    expect(zoomWindow(whole, 4, { kind: "gravity", gravity: "br" })).toEqual({
      left: 1200,
      top: 750,
      width: 400,
      height: 250,
    });
    expect(zoomWindow(whole, 2, { kind: "point", point: { x: 100, y: 900 } })).toEqual({
      left: 0,
      top: 500,
      width: 800,
      height: 500,
    });
    expect(zoomWindow(whole, 1, { kind: "gravity", gravity: "c" })).toBe(whole);
  });

  it("maps the SDK's long gravity names; strategies and face are no anchor", () => {
    expect(gravityAnchor("top-left")).toBe("tl");
    expect(gravityAnchor("tl")).toBe("tl");
    expect(gravityAnchor(undefined)).toBe("c");
    expect(gravityAnchor("entropy")).toBeUndefined();
    expect(gravityAnchor("face")).toBeUndefined();
  });
});
