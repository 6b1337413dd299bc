import { describe, expect, it } from "vitest";
import { deliveryUrl, deliveryUrlFor, encodePath } from "./delivery-url.js";

/** What encodePath must equal: every segment encoded on its own. */
const bySegment = (path: string) => path.split("/").map(encodeURIComponent).join("/");

describe("encodePath", () => {
  it.each([
    "photos/cat.jpg",
    "a_b-c.d!e~f*g'h(i)j/k",
    "tab\there/new\nline",
    "a b/c+d/e?f#g&h=i",
    "literal%2Fslash/100%.png",
    "%2F%2f/%25",
    "ünïcødé/日本語/😀.png",
    "a//b/",
    "/",
    "",
    "w_256,h_256,c_limit/x.jpg",
    "..%2F../x",
  ])("encodes %j segment by segment", (path) => {
    expect(encodePath(path)).toBe(bySegment(path));
  });

  it("never turns an encoded percent sign back into a slash", () => {
    expect(encodePath("a%2Fb")).toBe("a%252Fb");
  });
});

describe("deliveryUrl", () => {
  it("joins the assets URL (trailing slashes trimmed), the workspace and the path (leading slashes dropped)", () => {
    const url = deliveryUrlFor("https://cdn.example.test/assets///");
    expect(url("ws 1", "//photos/a b.jpg")).toBe("https://cdn.example.test/assets/ws%201/photos/a%20b.jpg");
    expect(url("ws", "")).toBe("https://cdn.example.test/assets/ws/");
    expect(deliveryUrl("http://127.0.0.1:3000/assets", "k3x9", "f/cat.jpg")).toBe(
      "http://127.0.0.1:3000/assets/k3x9/f/cat.jpg",
    );
  });
});
