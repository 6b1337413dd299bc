import { describe, expect, it } from "vitest";
import { SNIFF_HEAD_BYTES, sniffContent } from "./sniff-content.js";
import { startsWithSvgRoot } from "./svg-root.js";

// Far beyond SNIFF_HEAD_BYTES: a scanner that is not linear would not finish these in a test run.
const MANY = 200_000;

describe("startsWithSvgRoot", () => {
  it.each([
    ["bare", '<svg xmlns="http://www.w3.org/2000/svg"/>'],
    ["self-closing right after the name", "<svg/>"],
    ["newline after the name", "<svg\n  viewBox='0 0 1 1'>"],
    ["upper case", "<SVG>"],
    ["leading whitespace", " \t\r\n<svg>"],
    ["byte order mark", "\uFEFF<svg>"],
    ["declaration", '<?xml version="1.0" encoding="UTF-8"?>\n<svg>'],
    ["declaration in upper case, no whitespace", "<?XML version='1.0'?><svg>"],
    ["comments", "<!-- a --><!--b-->\n<!---->  <svg>"],
    ["a comment holding markup", "<!-- <svg> is below --><svg>"],
    [
      "public doctype",
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/1.1/DTD/svg11.dtd">\n<svg>',
    ],
    ["lower-case doctype", "<!doctype svg><svg>"],
    ["internal subset", '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>'],
    ["internal subset then whitespace before >", "<!DOCTYPE svg [ <!ENTITY a 'b'> ]\n >\n<svg>"],
    ["a ] inside the subset that closes nothing", '<!DOCTYPE svg [<!ENTITY x "]">]><svg>'],
    ["everything", '\uFEFF <?xml version="1.0"?> <!-- c --> <!DOCTYPE svg [ ]> <!-- d --> <svg width="1">'],
  ])("accepts %s", (_, text) => {
    expect(startsWithSvgRoot(text)).toBe(true);
  });

  it.each([
    ["empty", ""],
    ["plain text", "hello <svg>"],
    ["another root", '<?xml version="1.0"?><note/>'],
    ["a longer element name", "<svgx>"],
    ["the name at the very end", "<svg"],
    ["html", "<html><svg></svg></html>"],
    ["a declaration that never closes with ?>", '<?xml version="1.0"><svg>'],
    ["a declaration without the question mark", "<?xml><svg>"],
    ["an unterminated declaration", '<?xml version="1.0" <svg>'],
    ["an unterminated comment", "<!-- <svg>"],
    ["a comment closed by ->", "<!--> <svg>"],
    ["an unterminated doctype", "<!DOCTYPE svg <svg"],
    ["an unterminated internal subset", "<!DOCTYPE svg [ <svg>"],
    ["text after a comment, then the end of another", "<!-- a --> b --> <svg>"],
    ["non-ASCII look-alike letters", "<ſvg>"],
  ])("refuses %s", (_, text) => {
    expect(startsWithSvgRoot(text)).toBe(false);
  });

  describe("pathological prologs (the inputs that made the old regex backtrack)", () => {
    it.each([
      ["empty comments, then text", `${"<!---->".repeat(MANY)}x`, false],
      ["empty comments, then the root", `${"<!---->".repeat(MANY)}<svg>`, true],
      ["comments and doctypes interleaved, then text", `<!--${"--><!DOCTYPE[O".repeat(MANY)}`, false],
      ["an unterminated comment full of near-closings", `<!--${"--!>-- >".repeat(MANY)}`, false],
      ["doctype openings with brackets", "<!DOCTYPE [".repeat(MANY), false],
      ["nested brackets", `<!DOCTYPE svg ${"[".repeat(MANY)}${"]".repeat(MANY)}><svg>`, true],
      ["brackets never followed by >", `<!DOCTYPE svg [${"] ".repeat(MANY)}<svg>`, false],
      [
        "whitespace runs between brackets",
        `<!DOCTYPE svg [${`]${" ".repeat(50)}`.repeat(MANY / 10)}x`,
        false,
      ],
      ["a declaration without its end", `<?xml${" ?".repeat(MANY)}`, false],
      ["doctypes, then the root", `${"<!DOCTYPE svg [ ]>\n".repeat(MANY)}<svg>`, true],
    ])("%s", (_, text, expected) => {
      expect(startsWithSvgRoot(text)).toBe(expected);
    });

    it("keeps a full sniff head of empty comments text/plain", async () => {
      const head = new TextEncoder().encode(`${"<!---->".repeat(SNIFF_HEAD_BYTES)}x`);
      expect(await sniffContent(head, "notes.txt")).toMatchObject({
        mimeType: "text/plain",
        extension: "txt",
      });
    });
  });
});
