import { describe, expect, it } from "vitest";
import {
  deliveryBase,
  encodeDeliveryPath,
  joinDeliveryUrl,
  parseWorkspaceSegment,
  trimAssetsUrl,
} from "./delivery-url-format.js";

describe("the delivery URL format", () => {
  it("encodes each segment and keeps the slashes, plain paths as they are", () => {
    expect(encodeDeliveryPath("photos/2024/cat.jpg")).toBe("photos/2024/cat.jpg");
    expect(encodeDeliveryPath("a b/c#d?e/100%.png")).toBe("a%20b/c%23d%3Fe/100%25.png");
    for (const path of ["ü/ñ.jpg", "x%2Fy/z", "a+b/c&d"])
      expect(encodeDeliveryPath(path), path).toBe(path.split("/").map(encodeURIComponent).join("/"));
  });

  it("builds {assets}/{workspace}[-{source}]/{transform?}/{path}", () => {
    const assets = trimAssetsUrl("https://assets.example.com/cdn//");
    expect(assets).toBe("https://assets.example.com/cdn");
    expect(joinDeliveryUrl(deliveryBase(assets, "ws1"), "a.jpg")).toBe(
      "https://assets.example.com/cdn/ws1/a.jpg",
    );
    expect(joinDeliveryUrl(deliveryBase(assets, "ws1", "shop"), "a.jpg", "w_100")).toBe(
      "https://assets.example.com/cdn/ws1-shop/w_100/a.jpg",
    );
    expect(trimAssetsUrl("https://assets.example.com/")).toBe("https://assets.example.com");
  });

  it("parses the first segment back into a workspace and a source", () => {
    expect(parseWorkspaceSegment("ws1")).toEqual({ workspaceNo: "ws1" });
    expect(parseWorkspaceSegment("ws1-my_shop-eu")).toEqual({ workspaceNo: "ws1", source: "my_shop-eu" });
    for (const bad of ["", "-shop", "ws 1", "ws1-", "ws1-sh op"])
      expect(parseWorkspaceSegment(bad), bad).toBeNull();
  });
});
