/**
 * The duplicate check's plan (issue #37): in a workspace where one content dominates (a
 * placeholder image uploaded thousands of times beside a few other contents), PostgreSQL's generic
 * plan for `workspace_id = $1 AND hash = $2` becomes a sequential scan that stops at the first
 * match, and reads every row for bytes the workspace does not hold. `firstFileWithHash`'s shape
 * must keep the index under a generic plan. The plain shape is checked to degrade on the same data,
 * so the data is proven to set the trap. Plans only, never timings. Runs when
 * TROVE_TEST_DATABASE_URL names a PostgreSQL server (vitest.config.ts leaves this file out otherwise).
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../src/generated/prisma/client.js";
import { firstFileWithHash } from "../src/uploads/first-file-with-hash.js";
import { type FileRowDb, insertFileRow } from "../src/uploads/insert-file-row.js";
import { createTestApp, type TestApp } from "./support/index.js";

const DOMINANT = "d".repeat(64);
const ABSENT = "0".repeat(64);

/** Every node type of an EXPLAIN (FORMAT JSON) plan, with the index it reads when it does. */
function planNodes(plan: Record<string, unknown>): string[] {
  const here = `${plan["Node Type"]}${plan["Index Name"] ? ` ${plan["Index Name"]}` : ""}`;
  const children = (plan.Plans as Record<string, unknown>[] | undefined) ?? [];
  return [here, ...children.flatMap(planNodes)];
}

describe("the duplicate check's plan (PostgreSQL, generic plans)", () => {
  let t: TestApp;
  let client: pg.Client;

  beforeAll(async () => {
    t = await createTestApp();
    if (t.config.database.kind !== "postgres") throw new Error("TROVE_TEST_DATABASE_URL is not set");
    const workspaceId = t.workspace.id;
    // 20,000 files of one content and 2,000 spread over 5 others: 6 distinct hashes in 22,000 rows.
    await t.app.db.$executeRaw`
      INSERT INTO files (id, workspace_id, name, path, storage_key, size, mime_type, format, extension,
                         hash, tags, metadata, upload_source, created_at, updated_at)
      SELECT gen_random_uuid(), ${workspaceId}::uuid, 'f' || g || '.png', 'seed/f' || g || '.png',
             'seed/' || g, 10, 'image/png', 'png', 'png',
             CASE WHEN g <= 20000 THEN ${DOMINANT} ELSE repeat(chr(97 + g % 5), 64) END,
             '{}'::text[], '{}'::jsonb, 'upload', now(), now()
        FROM generate_series(1, 22000) AS g`;
    await t.app.db.$executeRaw`ANALYZE files`;
    client = new pg.Client({ connectionString: t.config.database.url });
    await client.connect();
    // What the direct path's named statements get after five runs, made certain.
    await client.query("SET plan_cache_mode = force_generic_plan");
  }, 120_000);

  afterAll(async () => {
    await client?.end();
    await t?.close();
  });

  /** A statement's value as an EXECUTE argument (EXECUTE takes no bind parameters). */
  const literal = (value: unknown): string => {
    if (value === null || value === undefined) return "NULL";
    if (Array.isArray(value)) {
      const items = value.map((item) => `"${String(item).replace(/["\\]/g, "\\$&")}"`);
      return client.escapeLiteral(`{${items.join(",")}}`);
    }
    return client.escapeLiteral(String(value));
  };

  // A named statement, planned generically (plan_cache_mode above), as the direct path's are.
  let statements = 0;
  const explain = async (query: Prisma.Sql) => {
    const name = `plan_${++statements}`;
    await client.query(`PREPARE ${name} AS ${query.text}`);
    const args = query.values.map(literal).join(", ");
    const { rows } = await client.query(`EXPLAIN (FORMAT JSON) EXECUTE ${name}(${args})`);
    return planNodes((rows[0]["QUERY PLAN"] as Array<{ Plan: Record<string, unknown> }>)[0]!.Plan);
  };

  it("the plain shape degrades to a sequential scan on this data (the trap is set)", async () => {
    const nodes = await explain(
      Prisma.sql`SELECT EXISTS (SELECT 1 FROM files WHERE workspace_id = ${t.workspace.id}::uuid AND hash = ${ABSENT})`,
    );
    expect(nodes).toContain("Seq Scan");
  });

  it("the duplicate check reads the (workspace_id, hash) index under a generic plan", async () => {
    const nodes = await explain(
      Prisma.sql`SELECT EXISTS (SELECT 1 FROM (${firstFileWithHash(t.workspace.id, ABSENT)}) AS same)`,
    );
    expect(nodes).not.toContain("Seq Scan");
    expect(nodes.some((node) => /Index (Only )?Scan files_workspace_id_hash_idx/.test(node))).toBe(true);
  });

  it("so does an upload's whole insert statement (the check, the placeholder it copies, the insert)", async () => {
    // The statement insertFileRow sends, captured rather than run; EXPLAIN does not run it either.
    let statement: Prisma.Sql | undefined;
    const capture = {
      $queryRaw: async (strings: TemplateStringsArray, ...values: unknown[]) => {
        statement = Prisma.sql(strings, ...values);
        return [{ skip: false, isDuplicate: false, id: null }];
      },
    } as unknown as FileRowDb;
    await insertFileRow(capture, {
      id: randomUUID(),
      workspaceId: t.workspace.id,
      folderId: null,
      name: "new.png",
      path: "new.png",
      storageKey: "k/new.png",
      size: 10,
      mimeType: "image/png",
      format: "png",
      extension: "png",
      width: 1,
      height: 1,
      orientation: null,
      hash: ABSENT,
      tags: [],
      metadata: {},
      customId: null,
      uploadSource: "upload",
      transformString: null,
      originalUrl: null,
      thumbnailKey: null,
      createdBy: null,
      isPrivate: false,
      placeholderPending: true,
    });
    const nodes = await explain(statement!);
    expect(nodes).not.toContain("Seq Scan");
    expect(nodes.some((node) => /Index (Only )?Scan files_workspace_id_hash_idx/.test(node))).toBe(true);
  });

  it("answers as equality does: the dominant and a rare content found, absent bytes and another workspace not", async () => {
    const exists = async (workspaceId: string, hash: string) => {
      const query = Prisma.sql`SELECT EXISTS (SELECT 1 FROM (${firstFileWithHash(workspaceId, hash)}) AS same) AS found`;
      const { rows } = await client.query({ text: query.text, values: query.values });
      return rows[0].found as boolean;
    };
    expect(await exists(t.workspace.id, DOMINANT)).toBe(true);
    expect(await exists(t.workspace.id, "c".repeat(64))).toBe(true);
    expect(await exists(t.workspace.id, ABSENT)).toBe(false);
    // A hash that sorts between two present ones, and a prefix of a present one.
    expect(await exists(t.workspace.id, "b".repeat(63))).toBe(false);
    expect(await exists(t.workspace2.id, DOMINANT)).toBe(false);
  });
});
