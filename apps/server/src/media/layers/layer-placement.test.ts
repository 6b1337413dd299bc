import { describe, expect, it } from "vitest";
import { layerOrigin, visiblePart } from "./layer-placement.js";

const base = { width: 400, height: 300 };
const layer = { width: 40, height: 20 };

describe("layerOrigin", () => {
  it("puts the layer's own matching point on each anchor by default", () => {
    expect(layerOrigin(base, layer, {})).toEqual({ left: 180, top: 140 });
    expect(layerOrigin(base, layer, { tp: "north-west" })).toEqual({ left: 0, top: 0 });
    expect(layerOrigin(base, layer, { tp: "north" })).toEqual({ left: 180, top: 0 });
    expect(layerOrigin(base, layer, { tp: "north-east" })).toEqual({ left: 360, top: 0 });
    expect(layerOrigin(base, layer, { tp: "east" })).toEqual({ left: 360, top: 140 });
    expect(layerOrigin(base, layer, { tp: "south-east" })).toEqual({ left: 360, top: 280 });
    expect(layerOrigin(base, layer, { tp: "south" })).toEqual({ left: 180, top: 280 });
    expect(layerOrigin(base, layer, { tp: "south-west" })).toEqual({ left: 0, top: 280 });
    expect(layerOrigin(base, layer, { tp: "west" })).toEqual({ left: 0, top: 140 });
  });

  it("reads the short names as the long ones", () => {
    for (const [short, long] of [
      ["se", "south-east"],
      ["nw", "north-west"],
      ["n", "north"],
      ["c", "center"],
    ] as const) {
      expect(layerOrigin(base, layer, { tp: short })).toEqual(layerOrigin(base, layer, { tp: long }));
    }
  });

  it("ip chooses the layer's point; x and y move right and down", () => {
    expect(layerOrigin(base, layer, { tp: "center", ip: "north-west" })).toEqual({ left: 200, top: 150 });
    expect(layerOrigin(base, layer, { tp: "south-east", x: -10, y: -5 })).toEqual({ left: 350, top: 275 });
    expect(layerOrigin(base, layer, { tp: "north-west", x: 10, y: 5 })).toEqual({ left: 10, top: 5 });
  });

  it("lx/ly place the top-left corner from the edges, each on its own axis", () => {
    expect(layerOrigin(base, layer, { lx: 150, ly: 150 })).toEqual({ left: 150, top: 150 });
    expect(layerOrigin(base, layer, { lx: 7, tp: "south", x: 100, y: -3 })).toEqual({ left: 7, top: 277 });
  });
});

describe("visiblePart", () => {
  it("is the whole layer inside the base, a clipped part across an edge, nothing outside", () => {
    expect(visiblePart(base, layer, { left: 10, top: 10 })).toEqual({
      left: 0,
      top: 0,
      width: 40,
      height: 20,
    });
    expect(visiblePart(base, layer, { left: -10, top: -5 })).toEqual({
      left: 10,
      top: 5,
      width: 30,
      height: 15,
    });
    expect(visiblePart(base, layer, { left: 380, top: 290 })).toEqual({
      left: 0,
      top: 0,
      width: 20,
      height: 10,
    });
    expect(visiblePart(base, layer, { left: 400, top: 0 })).toBeUndefined();
    expect(visiblePart(base, layer, { left: -40, top: 0 })).toBeUndefined();
    expect(visiblePart(base, { width: 1000, height: 1000 }, { left: -100, top: -100 })).toEqual({
      left: 100,
      top: 100,
      width: 400,
      height: 300,
    });
  });
});
