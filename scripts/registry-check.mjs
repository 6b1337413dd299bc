#!/usr/bin/env node
// Installable as users install it (issue #35 part 5): publish every Trove package to a Verdaccio
// started on loopback, then, in a fresh project outside the monorepo, install @trove/sdk,
// @trove/react and @trove/cli from it by version, typecheck the README snippets against what was
// installed, run the installed `trove`, and build the React starter on the published packages.
//
//   node scripts/registry-check.mjs            (builds the packages with turbo first)
//   node scripts/registry-check.mjs --no-build (uses the dist/ already there)
//
// It installs what it needs itself (Verdaccio from tools/registry-check/verdaccio's lockfile, into a
// temp directory), never changes the working tree (versions are made in a temp copy), and always
// stops Verdaccio and removes its temp directories. Packages Trove does not publish come from the
// registry npm is configured with, through Verdaccio's one uplink: no other address is contacted.
import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { pnpmCommand } from "../tools/registry-check/src/pnpm-command.mjs";

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const TOOL = join(ROOT, "tools", "registry-check");
const PUBLISHED = JSON.parse(readFileSync(join(TOOL, "publishable.json"), "utf8")).packages;
// What a user's project installs, and the READMEs whose ```ts/```tsx blocks must compile there.
const INSTALLED = ["@trove/sdk", "@trove/react", "@trove/cli"];
const SNIPPET_READMES = ["packages/sdk/README.md", "packages/react/README.md", "packages/cli/README.md"];
const STARTER = "examples/react-upload";
const WORKSPACE_GLOBS = ["packages", "apps", "examples", "tools"];

const build = !process.argv.includes("--no-build");
const temp = mkdtempSync(join(tmpdir(), "trove-registry-check-"));
const timings = [];
let verdaccio;

/** Runs a command to completion; its output is shown only when it fails (or with --verbose). */
function run(command, args, cwd, env = childEnv) {
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  if (result.status !== 0 || process.argv.includes("--verbose")) process.stdout.write(output);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} (in ${cwd}) exited ${result.status ?? result.signal}`);
  }
  return result.stdout;
}

async function step(name, body) {
  const started = performance.now();
  console.log(`\n== ${name}`);
  try {
    await body();
    timings.push({ name, seconds: (performance.now() - started) / 1000, ok: true });
  } catch (error) {
    timings.push({ name, seconds: (performance.now() - started) / 1000, ok: false });
    throw error;
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// The child processes see this project's registry and a cache of their own (a stale tarball of the
// same name and version must not stand in for the one just published); npm_config_* inherited from
// an `npm run`/`pnpm` parent would override the .npmrc, so they are dropped.
const upstream = spawnSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).stdout.trim();
const port = await freePort();
const registry = `http://127.0.0.1:${port}/`;
const npmrc = join(temp, ".npmrc");
// Verdaccio lets anyone publish @trove/* here (a throwaway store on loopback); npm and pnpm still
// want a token before they publish, so a placeholder stands in.
writeFileSync(npmrc, `registry=${registry}\n//127.0.0.1:${port}/:_authToken=registry-check\n`);
const childEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^npm_config_/i.test(key)),
);
Object.assign(childEnv, {
  NPM_CONFIG_USERCONFIG: npmrc,
  npm_config_cache: join(temp, "npm-cache"),
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
});
const pnpm = pnpmCommand(ROOT);

function readJson(file) {
  return JSON.parse(readFileSync(file, "utf8"));
}

/** Every ```ts and ```tsx block of the READMEs, each a module of its own. */
function snippets() {
  const found = [];
  for (const readme of SNIPPET_READMES) {
    const text = readFileSync(join(ROOT, readme), "utf8");
    for (const match of text.matchAll(/^```(tsx?)\n([\s\S]*?)^```$/gm)) {
      const line = text.slice(0, match.index).split("\n").length;
      found.push({ name: `${readme.replaceAll("/", "_")}_${line}.${match[1]}`, code: match[2] });
    }
  }
  return found;
}

async function startVerdaccio() {
  const host = join(temp, "verdaccio");
  mkdirSync(host);
  for (const file of ["package.json", "package-lock.json"])
    cpSync(join(TOOL, "verdaccio", file), join(host, file));
  // Verdaccio itself comes from the machine's registry, not from the one it is about to serve.
  const installEnv = { ...childEnv, NPM_CONFIG_USERCONFIG: join(temp, "empty.npmrc") };
  writeFileSync(installEnv.NPM_CONFIG_USERCONFIG, `registry=${upstream}\n`);
  run("npm", ["ci", "--no-audit", "--no-fund"], host, installEnv);
  const config = join(temp, "verdaccio.yaml");
  writeFileSync(
    config,
    [
      `storage: ${join(temp, "storage")}`,
      "auth:",
      "  htpasswd:",
      `    file: ${join(temp, "htpasswd")}`,
      "    max_users: -1",
      "uplinks:",
      "  upstream:",
      `    url: ${upstream}`,
      "    timeout: 120s",
      "packages:",
      // @trove/* exists only here: never looked up upstream, so a published name cannot shadow it.
      "  '@trove/*':",
      "    access: $all",
      "    publish: $all",
      "  '**':",
      "    access: $all",
      "    proxy: upstream",
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  verdaccio = spawn(
    join(host, "node_modules", ".bin", "verdaccio"),
    ["--config", config, "--listen", `127.0.0.1:${port}`],
    {
      env: childEnv,
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (verdaccio.exitCode !== null) throw new Error(`verdaccio exited ${verdaccio.exitCode}`);
    try {
      if ((await fetch(`${registry}-/ping`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("verdaccio did not answer /-/ping within 60 s");
}

/**
 * A copy of the workspace's manifests (and of the published packages whole, less node_modules) where
 * changesets makes a throwaway snapshot version: the real tree's versions and changesets stay as
 * they are. Returns each published package's version.
 */
function versionCopy() {
  const copy = join(temp, "workspace");
  for (const file of ["package.json", "pnpm-workspace.yaml"]) cpSync(join(ROOT, file), join(copy, file));
  cpSync(join(ROOT, ".changeset"), join(copy, ".changeset"), { recursive: true });
  const dirs = ["bench", "e2e"];
  for (const glob of WORKSPACE_GLOBS) {
    for (const entry of readdirSync(join(ROOT, glob), { withFileTypes: true })) {
      if (entry.isDirectory()) dirs.push(`${glob}/${entry.name}`);
    }
  }
  for (const dir of dirs) {
    if (PUBLISHED.includes(dir)) {
      cpSync(join(ROOT, dir), join(copy, dir), {
        recursive: true,
        filter: (source) => !relative(join(ROOT, dir), source).split("/").includes("node_modules"),
      });
    } else {
      try {
        cpSync(join(ROOT, dir, "package.json"), join(copy, dir, "package.json"));
      } catch {
        // a folder that is not a package
      }
    }
  }
  // The changelog generator the config names resolves from the copy's node_modules.
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
  run(
    "node",
    [join(ROOT, "node_modules", "@changesets", "cli", "bin.js"), "version", "--snapshot", "ci"],
    copy,
  );
  return {
    copy,
    versions: Object.fromEntries(
      PUBLISHED.map((dir) => [
        readJson(join(copy, dir, "package.json")).name,
        readJson(join(copy, dir, "package.json")).version,
      ]),
    ),
  };
}

async function main() {
  let copy;
  let versions;
  await step(`start Verdaccio on ${registry} (uplink: the configured npm registry)`, startVerdaccio);
  if (build) {
    const filters = PUBLISHED.map((dir) => `--filter=./${dir}`);
    await step("build the published packages (turbo)", () =>
      run(
        pnpm[0],
        [...pnpm.slice(1), "exec", "turbo", "run", "build", ...filters, "--output-logs=errors-only"],
        ROOT,
      ),
    );
  }
  await step("version a temp copy (changeset version --snapshot ci)", () => {
    ({ copy, versions } = versionCopy());
    for (const [name, version] of Object.entries(versions)) console.log(`${name}@${version}`);
  });
  await step("publish with pnpm publish (workspace:* becomes the version)", () => {
    for (const dir of PUBLISHED) {
      run(
        pnpm[0],
        [...pnpm.slice(1), "publish", "--registry", registry, "--no-git-checks", "--access", "public"],
        join(copy, dir),
      );
    }
  });
  const project = join(temp, "project");
  mkdirSync(project);
  await step(
    "fresh project outside the monorepo: npm install @trove/sdk, @trove/react, @trove/cli by version",
    () => {
      run("npm", ["init", "-y"], project);
      const wanted = INSTALLED.map((name) => `${name}@${versions[name]}`);
      run(
        "npm",
        [
          "install",
          ...wanted,
          "react",
          "react-dom",
          "typescript",
          "@types/react",
          "@types/react-dom",
          "@types/node",
          "--registry",
          registry,
        ],
        project,
      );
    },
  );
  await step("typecheck the README snippets against the installed packages (tsc, strict, bundler)", () => {
    const all = snippets();
    if (all.length < 5) throw new Error(`only ${all.length} README snippets found`);
    mkdirSync(join(project, "snippets"));
    for (const { name, code } of all) writeFileSync(join(project, "snippets", name), code);
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2022", "DOM", "DOM.Iterable"],
          module: "Preserve",
          moduleResolution: "Bundler",
          moduleDetection: "force",
          // A Node reader's TypeScript (node16/nodenext) has "node": the Node snippets import "@trove/sdk".
          customConditions: ["node"],
          jsx: "react-jsx",
          types: ["node"],
          strict: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: true,
          noEmit: true,
        },
        include: ["snippets"],
      }),
    );
    run(join(project, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.json"], project);
    console.log(`${all.length} snippets compile`);
  });
  await step("npx trove --help from the installed CLI", () => {
    const help = run("npx", ["--no-install", "trove", "--help"], project);
    if (!help.includes("Usage: trove")) throw new Error(`unexpected help:\n${help}`);
  });
  await step(`build the starter (${STARTER} copied out, on the published @trove/react)`, () => {
    const starter = join(temp, "starter");
    cpSync(join(ROOT, STARTER), starter, {
      recursive: true,
      filter: (source) => !/\/(node_modules|dist)(\/|$)/.test(relative(ROOT, source)),
    });
    const manifest = readJson(join(starter, "package.json"));
    for (const deps of [manifest.dependencies, manifest.devDependencies]) {
      for (const [name, range] of Object.entries(deps ?? {})) {
        if (range.startsWith("workspace:")) deps[name] = versions[name];
      }
    }
    writeFileSync(join(starter, "package.json"), JSON.stringify(manifest, null, 2));
    // Inside the repository the starter reads the packages' sources (`dev-source`); a user's copy
    // reads the published dist, as the starter's own comments say.
    for (const file of ["vite.config.ts", "tsconfig.json"]) {
      const text = readFileSync(join(starter, file), "utf8");
      const stripped = text
        .replace(/^\s*"customConditions": \["dev-source"\],?\n/m, "")
        .replace(/"dev-source",\s*/g, "");
      if (stripped.includes('"dev-source"'))
        throw new Error(`${STARTER}/${file}: dev-source left after stripping`);
      writeFileSync(join(starter, file), stripped);
    }
    run("npm", ["install", "--registry", registry], starter);
    run("npm", ["run", "typecheck"], starter);
    run("npm", ["run", "build"], starter);
  });
  await step(
    "self-hosting: npm install @trove/server and @trove/mcp by version, trove-server migrate",
    () => {
      const host = join(temp, "server");
      mkdirSync(host);
      run("npm", ["init", "-y"], host);
      const wanted = ["@trove/server", "@trove/mcp"].map((name) => `${name}@${versions[name]}`);
      run("npm", ["install", ...wanted, "--registry", registry], host);
      const help = run("npx", ["--no-install", "trove-server", "--help"], host);
      if (!help.includes("migrate")) throw new Error(`unexpected help:\n${help}`);
      // The console travels in the tarball (apps/server/scripts/bundle-console.mjs), found beside dist/.
      const consolePage = join(host, "node_modules", "@trove", "server", "console", "index.html");
      if (!existsSync(consolePage))
        throw new Error(`the installed @trove/server has no console: ${consolePage}`);
      // The published migrations and Prisma client against the embedded database, in a data folder of its own.
      run("npx", ["--no-install", "trove-server", "migrate"], host, {
        ...childEnv,
        TROVE_DATA_DIR: join(host, "data"),
      });
    },
  );
}

let failed = false;
const started = performance.now();
try {
  await main();
} catch (error) {
  failed = true;
  console.error(`\nregistry check failed: ${error instanceof Error ? error.message : error}`);
} finally {
  verdaccio?.kill("SIGTERM");
  rmSync(temp, { recursive: true, force: true });
}
console.log("\nregistry check summary");
for (const { name, seconds, ok } of timings)
  console.log(`${ok ? "ok  " : "FAIL"} ${seconds.toFixed(1).padStart(6)} s  ${name}`);
console.log(
  `${failed ? "FAIL" : "ok  "} ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s  total`,
);
process.exitCode = failed ? 1 : 0;
