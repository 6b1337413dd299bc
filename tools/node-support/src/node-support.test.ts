import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { major, satisfies, valid } from "semver";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

interface SupportedMajor {
  major: number;
  /** The oldest release of the line that engines accept. */
  floor: string;
  /** The release CI tests. */
  ci: string;
  /** The vitest projects scripts/node-majors.mjs reruns on it. */
  suites: string[];
}

const { majors } = readJson<{ majors: SupportedMajor[] }>("scripts/node-majors.json");

/** What every engines.node must say: one caret range per tested major, nothing wider. */
const ENGINES = majors.map(({ floor }) => `^${floor}`).join(" || ");

/**
 * Every package someone installs or copies on its own, so every one that must state the range:
 * the root, the published packages, the server, the examples, the bench. (The private test
 * tools and e2e/ only ever run inside the workspace.)
 */
const MANIFESTS = [
  "package.json",
  "bench/package.json",
  ...["packages", "apps", "examples"].flatMap((folder) =>
    readdirSync(`${ROOT}/${folder}`)
      .map((name) => `${folder}/${name}/package.json`)
      .filter((path) => existsSync(`${ROOT}/${path}`)),
  ),
];

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(`${ROOT}/${path}`, "utf8")) as T;
}

describe("supported Node majors (scripts/node-majors.json)", () => {
  it("pin, per major, a CI release of that line no older than its floor", () => {
    expect(majors.length).toBeGreaterThan(0);
    for (const { major: line, floor, ci } of majors) {
      expect([valid(floor), valid(ci)]).toEqual([floor, ci]);
      expect([major(floor), major(ci)]).toEqual([line, line]);
      expect(satisfies(ci, `^${floor}`), `${ci} is older than the floor ${floor}`).toBe(true);
    }
  });

  it("rerun the schema, SDK and engines check on every major, and the server on the oldest and newest", () => {
    const lines = majors.map(({ major: line }) => line);
    for (const { major: line, suites } of majors) {
      expect(suites, `Node ${line}`).toEqual(expect.arrayContaining(["schema", "sdk", "node-support"]));
      const edge = line === Math.min(...lines) || line === Math.max(...lines);
      expect(suites.includes("server"), `Node ${line}: server suite`).toBe(edge);
    }
  });

  it.each(MANIFESTS)("%s: engines.node is exactly the tested majors", (manifest) => {
    expect(readJson<{ engines?: { node?: string } }>(manifest).engines?.node).toBe(ENGINES);
  });

  it("finds the packages (a moved folder must not leave the check with nothing to read)", () => {
    expect(MANIFESTS).toEqual(
      expect.arrayContaining(["apps/server/package.json", "packages/sdk/package.json"]),
    );
    expect(MANIFESTS.filter((path) => path.startsWith("examples/")).length).toBeGreaterThanOrEqual(5);
  });

  it("run on a Node the engines accept (and, under scripts/node-majors.mjs, the major it asked for)", () => {
    // The machine's own Node runs `npm test`: were it outside the list, CI would test an
    // unsupported Node and none of the supported one it stands for.
    expect(satisfies(process.version, ENGINES), `${process.version} is not in ${ENGINES}`).toBe(true);
    const asked = process.env.TROVE_NODE_MAJOR;
    if (asked !== undefined) expect(major(process.version)).toBe(Number(asked));
  });
});
