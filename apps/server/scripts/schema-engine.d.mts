/** Types of ./schema-engine.mjs (a dev/test helper over @prisma/schema-engine-wasm). */
export interface SchemaEngineLike {
  diff(params: unknown): Promise<{ exitCode: number; stdout: string | null }>;
  free(): void;
}
export interface MigrationDirectoryInput {
  path: string;
  migrationFile: { path: string; content: { tag: "ok"; value: string } | { tag: "error"; value: string } };
}
export function loadSchemaEngineModule(): Promise<{ version(): string }>;
export function createSchemaEngine(
  adapterFactory: object,
  schema: string,
  log?: (line: string) => void,
): Promise<SchemaEngineLike>;
export function diffEmptyToSchema(engine: SchemaEngineLike, schema: string): Promise<string>;
export function diffDatabaseToSchema(engine: SchemaEngineLike, schema: string): Promise<string>;
export function diffMigrationsToSchema(
  engine: SchemaEngineLike,
  migrationDirectories: MigrationDirectoryInput[],
  schema: string,
): Promise<string>;
