// Loads Prisma's migration engine compiled to WebAssembly (@prisma/schema-engine-wasm) on Node 20.
//
// The package's entry point does `import * as wasm from "./schema_engine_bg.wasm"`, which Node 20
// cannot load (no ESM integration for .wasm). So we instantiate the .wasm by hand with the
// wasm-bindgen glue module as its imports, as its own entry point would. Dev/test tool only: the
// server's runtime migrator (src/db/migrator.ts) does not need it.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);

let enginePromise;

/** Returns the wasm-bindgen module (`SchemaEngine`, `version`), instantiated once per process. */
export function loadSchemaEngineModule() {
  enginePromise ??= (async () => {
    const pkgDir = dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg"));
    const glue = await import(pathToFileURL(join(pkgDir, "schema_engine_bg.js")).href);
    // The glue reports Rust panics through this global before throwing.
    globalThis.PRISMA_WASM_PANIC_REGISTRY ??= {
      message: "",
      set_message(message) {
        this.message = `RuntimeError: ${message}`;
      },
      get() {
        return this.message;
      },
    };
    const module = new WebAssembly.Module(readFileSync(join(pkgDir, "schema_engine_bg.wasm")));
    const instance = new WebAssembly.Instance(module, { "./schema_engine_bg.js": glue });
    glue.__wbg_set_wasm(instance.exports);
    instance.exports.__wbindgen_start();
    return glue;
  })();
  return enginePromise;
}

/**
 * Creates a SchemaEngine over a driver adapter factory (e.g. `new PrismaPGlite(pglite)`).
 * @param {object} adapterFactory a SqlMigrationAwareDriverAdapterFactory
 * @param {string} schema contents of schema.prisma
 * @param {(line: string) => void} [log]
 */
export async function createSchemaEngine(adapterFactory, schema, log = () => {}) {
  const { SchemaEngine } = await loadSchemaEngineModule();
  const { bindMigrationAwareSqlAdapterFactory } = await import("@prisma/driver-adapter-utils");
  return SchemaEngine.new(
    { datamodels: [["schema.prisma", schema]] },
    log,
    bindMigrationAwareSqlAdapterFactory(adapterFactory),
  );
}

const noFilters = { externalTables: [], externalEnums: [] };

/** SQL that takes an empty database to `schema` (what `prisma migrate diff --from-empty --to-schema` prints). */
export async function diffEmptyToSchema(engine, schema) {
  const result = await engine.diff({
    from: { tag: "empty" },
    to: { tag: "schemaDatamodel", files: [{ path: "schema.prisma", content: schema }] },
    script: true,
    exitCode: null,
    filters: noFilters,
  });
  return result.stdout ?? "";
}

/**
 * SQL that takes the database behind the engine's adapter to `schema`; empty when they agree.
 * Uses schemaDatasource as the "from" side so the engine introspects the live database.
 */
export async function diffDatabaseToSchema(engine, schema) {
  const result = await engine.diff({
    from: { tag: "schemaDatasource", files: [{ path: "schema.prisma", content: schema }], configDir: "." },
    to: { tag: "schemaDatamodel", files: [{ path: "schema.prisma", content: schema }] },
    script: true,
    exitCode: null,
    filters: noFilters,
  });
  return result.stdout ?? "";
}

const lockfileContent = 'provider = "postgresql"\n';

/**
 * SQL that takes the schema produced by `migrationDirectories` (replayed on the adapter's shadow
 * database) to `schema`.
 */
export async function diffMigrationsToSchema(engine, migrationDirectories, schema) {
  const result = await engine.diff({
    from: {
      tag: "migrations",
      baseDir: ".",
      lockfile: { path: "migration_lock.toml", content: lockfileContent },
      migrationDirectories,
      shadowDbInitScript: "",
    },
    to: { tag: "schemaDatamodel", files: [{ path: "schema.prisma", content: schema }] },
    script: true,
    exitCode: null,
    filters: noFilters,
  });
  return result.stdout ?? "";
}
