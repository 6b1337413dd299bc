/**
 * The configuration table of apps/server/README.md, made from the declaration
 * (./settings.ts): one table per group, a row per variable. `settings-table.test.ts` fails when
 * the README's copy differs; `pnpm --filter @trove/server settings-table` rewrites it.
 */
import { SETTING_GROUPS, type Setting } from "./setting-kinds.js";
import { SETTINGS } from "./settings.js";

export const TABLE_START =
  "<!-- settings-table: generated from src/config/settings.ts; rewrite with `pnpm --filter @trove/server settings-table` -->";
export const TABLE_END = "<!-- /settings-table -->";

/** A table cell: pipes escaped, so `fs | s3` stays one cell. */
const cell = (text: string) => text.replaceAll("|", "\\|");

function row(name: string, setting: Setting): string {
  const fallback = setting.defaultIsValue ? `\`${setting.defaultText}\`` : setting.defaultText;
  return `| \`${name}\` | ${cell(fallback)} | ${cell(setting.accepts)} | ${cell(setting.description)} |`;
}

/** The table, markers included. */
export function settingsTable(): string {
  const entries = Object.entries(SETTINGS) as [string, Setting][];
  const sections = SETTING_GROUPS.map((group) => {
    const rows = entries
      .filter(([, setting]) => setting.group === group)
      .map(([name, setting]) => row(name, setting));
    return [
      `**${group}**`,
      "",
      "| variable | default | accepts | what it does |",
      "| --- | --- | --- | --- |",
      ...rows,
    ].join("\n");
  });
  return [TABLE_START, "", sections.join("\n\n"), "", TABLE_END].join("\n");
}

/** `readme` with its table (from the start marker to the end marker) replaced by `table`. */
export function withSettingsTable(readme: string, table: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start === -1 || end < start) throw new Error(`README has no settings table markers (${TABLE_START})`);
  return readme.slice(0, start) + table + readme.slice(end + TABLE_END.length);
}
