import { describe, expect, it } from "vitest";
import {
  fileDetails,
  fileListRow,
  fileRecord,
  flatUploadResponse,
  multipartComplete,
} from "../../test/support/fixtures.js";
import { ASSETS_URL, testClient } from "../../test/support/msw-server.js";
import { deliveryUrl } from "./delivery-url.js";
import { TroveError } from "./errors.js";

describe("client.url", () => {
  const client = testClient();

  it("builds {assetsUrl}/{workspace_no}/{transform}/{path} from typed steps (canonical)", () => {
    expect(client.url(fileListRow, { w: 300, h: 300, c: "fill", f: "webp" })).toBe(
      `${ASSETS_URL}/ws1/w_300,h_300,c_fill,f_webp/photos/cat.jpg`,
    );
    expect(client.url(fileListRow, [{ w: 800 }, { e: "grayscale" }])).toBe(
      `${ASSETS_URL}/ws1/w_800/e_grayscale/photos/cat.jpg`,
    );
  });

  it("without a transform gives the plain delivery URL", () => {
    expect(client.url(fileListRow)).toBe(`${ASSETS_URL}/ws1/photos/cat.jpg`);
  });

  it("checks a transform string and keeps its spelling", () => {
    expect(client.url(fileListRow, "h_300,w_300")).toBe(`${ASSETS_URL}/ws1/h_300,w_300/photos/cat.jpg`);
    let error: unknown;
    try {
      client.url(fileListRow, "q_200");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TroveError);
    expect(error).toMatchObject({
      code: "INVALID_ARGUMENT",
      message: "Invalid transform: q_200: quality must be 1..100",
    });
  });

  it("writes named transforms, as a string or typed; t_card,w_100 is t_card/w_100", () => {
    expect(client.url(fileListRow, "t_card")).toBe(`${ASSETS_URL}/ws1/t_card/photos/cat.jpg`);
    expect(client.url(fileListRow, { t: "card" })).toBe(`${ASSETS_URL}/ws1/t_card/photos/cat.jpg`);
    expect(client.url(fileListRow, [{ t: "hero_2x" }, { e: "grayscale" }])).toBe(
      `${ASSETS_URL}/ws1/t_hero_2x/e_grayscale/photos/cat.jpg`,
    );
    // A string is written as given (it was checked); typed, the canonical two steps.
    expect(client.url(fileListRow, "t_card,w_100")).toBe(`${ASSETS_URL}/ws1/t_card,w_100/photos/cat.jpg`);
    expect(client.url(fileListRow, { t: "card", w: 100 })).toBe(
      `${ASSETS_URL}/ws1/t_card/w_100/photos/cat.jpg`,
    );
    expect(() => client.url(fileListRow, "t_card,t_other")).toThrow(
      "Invalid transform: t_other: key t is repeated in the step",
    );
    expect(() => client.url(fileListRow, { t: "Card" })).toThrow(
      /Invalid transform: t_Card: a transform name is/,
    );
  });

  it("accepts file details (workspace.workspace_no) and the rename record", () => {
    expect(client.url(fileDetails, { w: 10 })).toBe(`${ASSETS_URL}/ws1/w_10/photos/cat.jpg`);
    expect(client.url(fileRecord, { w: 10 })).toBe(`${ASSETS_URL}/ws1/w_10/photos/dog.jpg`);
  });

  it("accepts an upload result: splits its url where the path starts", async () => {
    expect(client.url(flatUploadResponse, { w: 10 })).toBe(`${ASSETS_URL}/ws1/w_10/photos/cat.jpg`);
    expect(client.url(multipartComplete(5).data, { w: 10 })).toBe(`${ASSETS_URL}/ws1/w_10/big.bin`);
  });

  it("accepts a delivery URL or a workspace_no/path string", () => {
    expect(client.url(`${ASSETS_URL}/ws1/a/b.png`, { f: "avif" })).toBe(`${ASSETS_URL}/ws1/f_avif/a/b.png`);
    expect(client.url("ws1/a b.png", { f: "avif" })).toBe(`${ASSETS_URL}/ws1/f_avif/a%20b.png`);
  });

  it("keeps a path prefix of assetsUrl", () => {
    const assets = "https://cdn.example.com/media";
    expect(deliveryUrl(`${assets}/ws9/x/y.jpg`, { w: 5 }, assets)).toBe(`${assets}/ws9/w_5/x/y.jpg`);
    expect(deliveryUrl({ workspace_no: "ws9", path: "x/y.jpg" }, undefined, `${assets}/`)).toBe(
      `${assets}/ws9/x/y.jpg`,
    );
  });

  it("refuses a private file: only a signed URL serves it", () => {
    const refusal = (target: Parameters<typeof client.url>[0]) => {
      try {
        client.url(target, { w: 10 });
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const message =
      "client.url() cannot give a URL of private file 1001: an unsigned URL of it answers 404. Call client.signedUrl(file) instead, which asks the server for a signed URL.";
    for (const target of [
      { ...flatUploadResponse, is_private: true },
      { ...fileDetails, file_no: "1001", is_private: true },
      { ...fileListRow, file_no: "1001", is_private: true },
    ]) {
      const error = refusal(target);
      expect(error).toBeInstanceOf(TroveError);
      expect(error).toMatchObject({ code: "INVALID_ARGUMENT", message });
    }
    expect(refusal({ workspace_no: "ws1", path: "a.jpg", isPrivate: true })).toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining("URL of a private file: "),
    });
    expect(() => deliveryUrl({ ...fileDetails, is_private: true }, undefined, ASSETS_URL)).toThrow(
      /client\.signedUrl\(file\)/,
    );
    expect(client.url({ ...fileDetails, is_private: false })).toBe(`${ASSETS_URL}/ws1/photos/cat.jpg`);
  });

  it("needs assetsUrl when nothing else says where the file is", () => {
    expect(() => deliveryUrl({ workspace_no: "ws1", path: "a.jpg" })).toThrow(/assetsUrl/);
    expect(() => deliveryUrl("ws1/a.jpg")).toThrow(/assetsUrl/);
  });
});

describe("source objects", () => {
  const assets = "https://cdn.example.com/assets";
  it("builds {assetsUrl}/{workspace_no}-{source}/{transform}/{path}", () => {
    expect(
      deliveryUrl({ origin: "store", path: "products/shoe one.jpg" }, "w_800,h_600,c_fill", assets, "ws1"),
    ).toBe(`${assets}/ws1-store/w_800,h_600,c_fill/products/shoe%20one.jpg`);
    expect(
      deliveryUrl({ origin: "my-store_2", path: "/a.jpg", workspace_no: "ws9" }, undefined, assets),
    ).toBe(`${assets}/ws9-my-store_2/a.jpg`);
  });

  it("refuses what would not name a source object", () => {
    expect(() => deliveryUrl({ origin: "store", path: "a.jpg" }, undefined, assets)).toThrow(/workspaceNo/);
    expect(() => deliveryUrl({ origin: "st ore", path: "a.jpg" }, undefined, assets, "ws1")).toThrow(
      /source name/,
    );
    expect(() => deliveryUrl({ origin: "store", path: "/" }, undefined, assets, "ws1")).toThrow(/path/);
  });
});
