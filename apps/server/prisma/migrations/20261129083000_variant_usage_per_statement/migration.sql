-- Stored variants count toward their workspace's usage once per statement, not once per row
-- (written by hand; Prisma has no triggers). Variant rows are written in batches and evicted
-- several at a time (src/delivery/variant-store.ts): per row, an eviction of 16 variants updated
-- the workspace's usage row 16 times in one statement, and every batch of new rows once per row,
-- each time looking the workspace up again. Now each statement sums its rows' sizes by workspace
-- (through the transition tables) and adds each sum once: the same totals, one lock and one row
-- version per workspace and statement.
--
-- Unchanged: a variant whose file or origin object is gone (a cascade from its parent, whose
-- BEFORE DELETE trigger subtracted its children already) counts nothing, and a recorded use
-- (ON CONFLICT ... DO UPDATE of last_used_at with the size it had) adds 0 and so takes no lock.
-- Transition tables cannot be combined with UPDATE OF <columns>, so the update trigger fires
-- for every update and nets each row's old size against its new one.

DROP TRIGGER file_variants_usage ON file_variants;
DROP FUNCTION trove_file_variants_usage();

-- Adds to each workspace the bytes of (file_id[i], origin_object_id[i], bytes[i]). The sums are
-- taken per owner first, so a statement over many variants of one file looks its workspace up
-- once; workspaces are updated in id order, so two statements never wait on each other's usage
-- rows in opposite orders.
CREATE FUNCTION trove_add_variant_bytes(file_ids uuid[], origin_ids uuid[], bytes bigint[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trove_add_usage(ws, 0, total)
     FROM (SELECT trove_derived_workspace(file_id, origin_id) AS ws, sum(owner_total)::bigint AS total
             FROM (SELECT file_id, origin_id, sum(b) AS owner_total
                     FROM unnest(file_ids, origin_ids, bytes) AS r(file_id, origin_id, b)
                    GROUP BY file_id, origin_id) owners
            GROUP BY 1 ORDER BY 1) d
    WHERE ws IS NOT NULL AND total <> 0;
END
$$;

CREATE FUNCTION trove_file_variants_usage_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trove_add_variant_bytes(array_agg(file_id), array_agg(origin_object_id), array_agg(coalesce(size, 0)))
     FROM added;
  RETURN NULL;
END
$$;

CREATE FUNCTION trove_file_variants_usage_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trove_add_variant_bytes(array_agg(file_id), array_agg(origin_object_id), array_agg(-coalesce(size, 0)))
     FROM removed;
  RETURN NULL;
END
$$;

-- A changed row takes its old size from its old owner's workspace and adds its new size to its
-- new owner's; a recorded use changes neither and adds nothing.
CREATE FUNCTION trove_file_variants_usage_updated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trove_add_variant_bytes(array_agg(file_id), array_agg(origin_object_id), array_agg(bytes))
     FROM (SELECT side.*
             FROM before_update o JOIN after_update n USING (cache_key)
            CROSS JOIN LATERAL (VALUES (o.file_id, o.origin_object_id, -coalesce(o.size, 0)),
                                       (n.file_id, n.origin_object_id, coalesce(n.size, 0)))
                  AS side(file_id, origin_object_id, bytes)
            WHERE (o.size, o.file_id, o.origin_object_id) IS DISTINCT FROM (n.size, n.file_id, n.origin_object_id)
          ) changed;
  RETURN NULL;
END
$$;

CREATE TRIGGER file_variants_usage_inserted AFTER INSERT ON file_variants
REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION trove_file_variants_usage_inserted();

CREATE TRIGGER file_variants_usage_deleted AFTER DELETE ON file_variants
REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION trove_file_variants_usage_deleted();

CREATE TRIGGER file_variants_usage_updated AFTER UPDATE ON file_variants
REFERENCING OLD TABLE AS before_update NEW TABLE AS after_update
FOR EACH STATEMENT EXECUTE FUNCTION trove_file_variants_usage_updated();
