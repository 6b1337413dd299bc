import { describe, expect, it } from "vitest";
import { ENGLISH, percent, plural, uploaderStrings } from "./uploader-strings.js";

describe("uploader strings", () => {
  it("are the English defaults, with overrides merged on top (status word by word)", () => {
    expect(uploaderStrings(undefined)).toBe(ENGLISH);
    const french = uploaderStrings({
      pause: "Suspendre",
      status: { done: "Envoyé" } as typeof ENGLISH.status,
    });
    expect(french.pause).toBe("Suspendre");
    expect(french.resume).toBe("Resume");
    expect(french.status).toEqual({ ...ENGLISH.status, done: "Envoyé" });
    expect(ENGLISH.status.done).toBe("Uploaded");
  });

  it("pluralise through Intl.PluralRules of the locale, with the number in its digits", () => {
    expect(plural(ENGLISH.files, 1, "en")).toBe("1 file");
    expect(plural(ENGLISH.files, 0, "en")).toBe("0 files");
    expect(plural(ENGLISH.files, 1_200, "en")).toBe("1,200 files");
    // French puts 0 and 1 in "one"; a missing category falls back to "other".
    const fichiers = { one: "# fichier", other: "# fichiers" };
    expect(plural(fichiers, 0, "fr")).toBe("0 fichier");
    expect(plural(fichiers, 2, "fr")).toBe("2 fichiers");
    // Polish has "few" and "many".
    const pliki = { one: "# plik", few: "# pliki", many: "# plików", other: "# pliku" };
    expect([1, 3, 5, 22].map((n) => plural(pliki, n, "pl"))).toEqual([
      "1 plik",
      "3 pliki",
      "5 plików",
      "22 pliki",
    ]);
  });

  it("write percentages in the locale's way and English sentences with their values", () => {
    expect(percent(52, "en")).toBe("52%");
    expect(percent(52, "fr").replace(/\s/g, " ")).toBe("52 %");
    expect(ENGLISH.announceStatus("a.png", "paused", "40%", undefined)).toBe("a.png: paused at 40%");
    expect(ENGLISH.announceStatus("a.png", "error", "0%", "Too big")).toBe("a.png: failed: Too big");
    expect(ENGLISH.rejectedDimensions("a.png", 640, 480, ENGLISH.minWidth(800))).toBe(
      "a.png is 640×480 px: it must be at least 800 px wide",
    );
  });
});
