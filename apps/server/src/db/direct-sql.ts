/**
 * Single statements straight to the driver (`pg` or PGlite), bypassing Prisma, for the few
 * statements on the hottest paths (a list page, the folder list, an upload's row):
 *
 *   const rows = await database.sql.$queryRaw<Row[]>`SELECT ... WHERE id = ${id}::uuid`;
 *
 * Prisma's `$queryRaw` spends about 390 µs of CPU per statement in its query engine and result
 * mapping, against about 117 µs for the same statement on `pg` (bench/RESULTS.md, rows 4 and 9).
 * Same template (`Prisma.sql`, so fragments compose and values are always parameters) and the
 * same result types as `$queryRaw`, so a caller can take either: int8 as `bigint`, timestamptz
 * as `Date`, json as parsed values, arrays as arrays. (Left alone, `pg` gives int8 as a string
 * and PGlite as a number.)
 *
 * On `pg` each statement text is a named prepared statement, parsed and planned once per
 * connection (`pgDirectSql`; TROVE_DATABASE_PREPARED_STATEMENTS=false sends them unnamed).
 *
 * Each statement is a `db queryRaw` span while tracing is on, like Prisma's (src/tracing/).
 *
 * Outside transactions only: there is no `tx` here. On PGlite a statement waits for a running
 * Prisma transaction to end, as Prisma's own statements do (the adapter runs transactions
 * through `PGlite.transaction`, which holds PGlite's lock).
 */
import type { PGlite } from "@electric-sql/pglite";
import { SpanKind } from "@opentelemetry/api";
import type pg from "pg";
import { Prisma } from "../generated/prisma/client.js";
import { inSpan } from "../tracing/in-span.js";

const INT8 = 20;
const INT8_ARRAY = 1016;

export interface DirectSql {
  $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T>;
}

/** What callers that take either Prisma or the direct path need. */
export type RawQuery = Pick<DirectSql, "$queryRaw">;

const SPAN_ATTRIBUTES = { "db.system.name": "postgresql", "db.operation.name": "queryRaw" };

/** The one `$queryRaw` of both drivers: build the statement, run it in a span, return its rows. */
function directSql(run: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>): DirectSql {
  return {
    async $queryRaw<T>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) {
      const sql = query instanceof Prisma.Sql ? query : Prisma.sql(query, ...values);
      const result = await inSpan(
        "db queryRaw",
        SPAN_ATTRIBUTES,
        () => run(sql.text, sql.values),
        SpanKind.CLIENT,
      );
      return result.rows as T;
    },
  };
}

/** int8 as bigint, as Prisma returns it. */
const parseInt8 = (text: string): bigint => BigInt(text);

function parseInt8Array(text: string): bigint[] {
  const inner = text.slice(1, -1);
  return inner === "" ? [] : inner.split(",").map((item) => BigInt(item));
}

/**
 * At most this many statement texts are prepared; any further text runs unnamed (correct, only
 * planned each time). The texts come from the code's templates with values as parameters, except
 * a list page's LIMIT (1 to 100, src/files/list-files.ts), so a client varies them only through
 * its sort, filters and page size: a handful in practice. The cap bounds what each connection
 * keeps whatever a client sends.
 */
export const MAX_PREPARED_STATEMENTS = 256;

/**
 * A name per statement text, the same on every connection of the pool: `pg` prepares a named
 * statement once per connection and then only binds and executes it, so PostgreSQL parses and
 * plans it once per connection rather than on every request (planning was most of the database's
 * time for the folder list; bench/RESULTS.md, row 9d).
 */
function preparedStatementNames(): (text: string) => string | undefined {
  const names = new Map<string, string>();
  return (text) => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_PREPARED_STATEMENTS) {
      name = `trove_direct_${names.size}`;
      names.set(text, name);
    }
    return name;
  };
}

/**
 * `prepared: false` sends every statement unnamed, for a connection pooler that cannot keep
 * prepared statements (PgBouncer before 1.21 in transaction mode).
 */
export function pgDirectSql(pool: pg.Pool, types: typeof pg.types, { prepared = true } = {}): DirectSql {
  const parsers: pg.CustomTypesConfig = {
    // biome-ignore lint/suspicious/noExplicitAny: pg's getTypeParser overloads take any format
    getTypeParser: ((oid: number, format?: any) => {
      if (oid === INT8) return parseInt8;
      if (oid === INT8_ARRAY) return parseInt8Array;
      return types.getTypeParser(oid, format);
    }) as pg.CustomTypesConfig["getTypeParser"],
  };
  const statementName = prepared ? preparedStatementNames() : () => undefined;
  return directSql((text, values) => {
    const name = statementName(text);
    return pool.query({ text, values, types: parsers, ...(name === undefined ? {} : { name }) });
  });
}

export function pgliteDirectSql(pglite: PGlite): DirectSql {
  const parsers = { [INT8]: parseInt8, [INT8_ARRAY]: parseInt8Array };
  return directSql((text, values) => pglite.query(text, values, { parsers }));
}
