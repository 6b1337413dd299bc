-- CreateTable
CREATE TABLE "workspace_file_counts" (
    "workspace_id" UUID NOT NULL,
    "slot" SMALLINT NOT NULL,
    "files" BIGINT NOT NULL DEFAULT 0,
    "bytes" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "workspace_file_counts_pkey" PRIMARY KEY ("workspace_id","slot")
);

-- CreateTable
CREATE TABLE "folder_file_counts" (
    "folder_id" UUID NOT NULL,
    "slot" SMALLINT NOT NULL,
    "direct_files" BIGINT NOT NULL DEFAULT 0,
    "tree_files" BIGINT NOT NULL DEFAULT 0,
    "tree_bytes" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "folder_file_counts_pkey" PRIMARY KEY ("folder_id","slot")
);

-- AddForeignKey
ALTER TABLE "workspace_file_counts" ADD CONSTRAINT "workspace_file_counts_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "folder_file_counts" ADD CONSTRAINT "folder_file_counts_folder_id_fkey" FOREIGN KEY ("folder_id") REFERENCES "folders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Counting (written by hand; Prisma has no triggers). Every change to a `files` row adds to the
-- counts in the statement that makes it, so the counts commit or roll back with the row, whatever
-- code path (or SQL console) made the change.

-- Adds n files of b bytes to a workspace and to a folder and each of its ancestors. Each backend
-- writes its own slot of 16, so concurrent writers rarely wait on one another's row lock.
CREATE FUNCTION trove_count_files(ws uuid, folder uuid, n bigint, b bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  s smallint := pg_backend_pid() % 16;
BEGIN
  -- When a workspace or folder is deleted, its counts go with it (ON DELETE CASCADE): the files
  -- deleted with it must not recreate them, hence the EXISTS and the walk from the folder row.
  INSERT INTO workspace_file_counts AS c (workspace_id, slot, files, bytes)
  SELECT ws, s, n, b WHERE EXISTS (SELECT 1 FROM workspaces w WHERE w.id = ws)
  ON CONFLICT (workspace_id, slot)
  DO UPDATE SET files = c.files + EXCLUDED.files, bytes = c.bytes + EXCLUDED.bytes;
  IF folder IS NOT NULL THEN
    WITH RECURSIVE up(id, parent_id, depth) AS (
      SELECT f.id, f.parent_id, 0 FROM folders f WHERE f.id = folder
      UNION ALL
      SELECT f.id, f.parent_id, up.depth + 1 FROM folders f JOIN up ON f.id = up.parent_id
    )
    INSERT INTO folder_file_counts AS c (folder_id, slot, direct_files, tree_files, tree_bytes)
    SELECT up.id, s, CASE WHEN up.depth = 0 THEN n ELSE 0 END, n, b FROM up ORDER BY up.id
    ON CONFLICT (folder_id, slot)
    DO UPDATE SET direct_files = c.direct_files + EXCLUDED.direct_files,
                  tree_files = c.tree_files + EXCLUDED.tree_files,
                  tree_bytes = c.tree_bytes + EXCLUDED.tree_bytes;
  END IF;
END
$$;

CREATE FUNCTION trove_files_counted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM trove_count_files(NEW.workspace_id, NEW.folder_id, 1, NEW.size);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM trove_count_files(OLD.workspace_id, OLD.folder_id, -1, -OLD.size);
  ELSIF OLD.workspace_id IS DISTINCT FROM NEW.workspace_id
     OR OLD.folder_id IS DISTINCT FROM NEW.folder_id
     OR OLD.size IS DISTINCT FROM NEW.size THEN
    PERFORM trove_count_files(OLD.workspace_id, OLD.folder_id, -1, -OLD.size);
    PERFORM trove_count_files(NEW.workspace_id, NEW.folder_id, 1, NEW.size);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER files_counted AFTER INSERT OR DELETE OR UPDATE OF workspace_id, folder_id, size ON files
FOR EACH ROW EXECUTE FUNCTION trove_files_counted();

CREATE FUNCTION trove_files_truncated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM workspace_file_counts;
  DELETE FROM folder_file_counts;
  RETURN NULL;
END
$$;

CREATE TRIGGER files_truncated AFTER TRUNCATE ON files
FOR EACH STATEMENT EXECUTE FUNCTION trove_files_truncated();

-- Recounts every count from the rows and, when `fix`, replaces the stored counts with it (one slot
-- each). Returns how many workspaces and folders had a count that differed. Writers to `files` wait
-- while it runs (SHARE lock), so no change can fall between the count and the replacement; readers
-- do not wait.
CREATE FUNCTION trove_recount_files(fix boolean) RETURNS TABLE (workspaces_wrong bigint, folders_wrong bigint)
LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE files IN SHARE MODE;
  CREATE TEMP TABLE expected_workspace ON COMMIT DROP AS
    SELECT f.workspace_id, count(*)::bigint AS files, coalesce(sum(f.size), 0)::bigint AS bytes
    FROM files f GROUP BY f.workspace_id;
  CREATE TEMP TABLE expected_folder ON COMMIT DROP AS
    WITH RECURSIVE direct AS (
      SELECT f.folder_id, count(*)::bigint AS n, coalesce(sum(f.size), 0)::bigint AS b
      FROM files f WHERE f.folder_id IS NOT NULL GROUP BY f.folder_id
    ), up(folder_id, ancestor_id) AS (
      SELECT d.folder_id, d.folder_id FROM direct d
      UNION ALL
      SELECT up.folder_id, p.parent_id FROM up JOIN folders p ON p.id = up.ancestor_id
      WHERE p.parent_id IS NOT NULL
    )
    SELECT up.ancestor_id AS folder_id,
           coalesce(sum(d.n) FILTER (WHERE up.ancestor_id = up.folder_id), 0)::bigint AS direct_files,
           sum(d.n)::bigint AS tree_files, sum(d.b)::bigint AS tree_bytes
    FROM up JOIN direct d ON d.folder_id = up.folder_id
    GROUP BY up.ancestor_id;

  SELECT count(*) INTO workspaces_wrong FROM (
    SELECT coalesce(e.workspace_id, s.workspace_id) AS id
    FROM expected_workspace e
    FULL JOIN (SELECT workspace_id, sum(files) AS files, sum(bytes) AS bytes
               FROM workspace_file_counts GROUP BY workspace_id) s ON s.workspace_id = e.workspace_id
    WHERE coalesce(e.files, 0) <> coalesce(s.files, 0) OR coalesce(e.bytes, 0) <> coalesce(s.bytes, 0)
  ) wrong;
  SELECT count(*) INTO folders_wrong FROM (
    SELECT coalesce(e.folder_id, s.folder_id) AS id
    FROM expected_folder e
    FULL JOIN (SELECT folder_id, sum(direct_files) AS direct_files, sum(tree_files) AS tree_files,
                      sum(tree_bytes) AS tree_bytes
               FROM folder_file_counts GROUP BY folder_id) s ON s.folder_id = e.folder_id
    WHERE coalesce(e.direct_files, 0) <> coalesce(s.direct_files, 0)
       OR coalesce(e.tree_files, 0) <> coalesce(s.tree_files, 0)
       OR coalesce(e.tree_bytes, 0) <> coalesce(s.tree_bytes, 0)
  ) wrong;

  IF fix THEN
    DELETE FROM workspace_file_counts;
    DELETE FROM folder_file_counts;
    INSERT INTO workspace_file_counts (workspace_id, slot, files, bytes)
      SELECT e.workspace_id, 0, e.files, e.bytes FROM expected_workspace e;
    INSERT INTO folder_file_counts (folder_id, slot, direct_files, tree_files, tree_bytes)
      SELECT e.folder_id, 0, e.direct_files, e.tree_files, e.tree_bytes FROM expected_folder e;
  END IF;
  DROP TABLE expected_workspace;
  DROP TABLE expected_folder;
  RETURN NEXT;
END
$$;

-- Counts for the files that exist already.
SELECT * FROM trove_recount_files(true);
