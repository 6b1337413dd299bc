// apps/server/README.md's configuration table is the declaration's (./settings.ts): names,
// defaults and descriptions. With TROVE_WRITE_SETTINGS_TABLE=1 (`pnpm --filter @trove/server
// settings-table`) this file rewrites the table instead of checking it.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readSettings } from "./read-settings.js";
import { SETTING_GROUPS } from "./setting-kinds.js";
import { SETTINGS } from "./settings.js";
import { settingsTable, withSettingsTable } from "./settings-table.js";

const readmePath = fileURLToPath(new URL("../../README.md", import.meta.url));

describe("the README's settings table", () => {
  it("is the one the declaration makes", () => {
    const readme = readFileSync(readmePath, "utf8");
    const expected = withSettingsTable(readme, settingsTable());
    if (process.env.TROVE_WRITE_SETTINGS_TABLE === "1" && expected !== readme)
      writeFileSync(readmePath, expected);
    else
      expect(
        readme,
        "apps/server/README.md's settings table differs from src/config/settings.ts: run `pnpm --filter @trove/server settings-table` to rewrite it",
      ).toBe(expected);
  });

  it("has a row with the default of every setting, in a group the table prints", () => {
    const table = settingsTable();
    for (const [name, setting] of Object.entries(SETTINGS)) {
      expect(SETTING_GROUPS, name).toContain(setting.group);
      const line = table.split("\n").find((row) => row.startsWith(`| \`${name}\` |`));
      expect(line, name).toBeDefined();
      expect(line, name).toContain(setting.defaultText.replaceAll("|", "\\|"));
    }
  });
});

describe("the declaration", () => {
  it("declares the default an unset variable reads as", () => {
    const unset = readSettings({}) as Record<string, unknown>;
    for (const [name, setting] of Object.entries(SETTINGS))
      expect(unset[name], name).toEqual(setting.default);
  });
});

describe("withSettingsTable", () => {
  it("replaces what lies between the markers and refuses a README without them", () => {
    const table = settingsTable();
    expect(withSettingsTable(`intro\n${table}\nafter`, "NEW")).toBe("intro\nNEW\nafter");
    expect(() => withSettingsTable("no table here", table)).toThrow(/markers/);
  });
});
