-- AlterTable
ALTER TABLE "file_variants" ADD COLUMN     "size" BIGINT;

-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "max_files" BIGINT,
ADD COLUMN     "max_storage_bytes" BIGINT;

-- CreateTable
CREATE TABLE "workspace_usage" (
    "workspace_id" UUID NOT NULL,
    "files" BIGINT NOT NULL DEFAULT 0,
    "storage_bytes" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "workspace_usage_pkey" PRIMARY KEY ("workspace_id")
);

-- CreateTable
CREATE TABLE "usage_days" (
    "workspace_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "requests" BIGINT NOT NULL DEFAULT 0,
    "bytes_served" BIGINT NOT NULL DEFAULT 0,
    "renders" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "usage_days_pkey" PRIMARY KEY ("workspace_id","day")
);

-- AddForeignKey
ALTER TABLE "workspace_usage" ADD CONSTRAINT "workspace_usage_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "usage_days" ADD CONSTRAINT "usage_days_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Usage counting (written by hand; Prisma has no triggers). As with the file counts (migration
-- 20261126050000_file_counts), every row that stores bytes adds to its workspace's usage in the
-- statement that inserts, resizes or deletes it, so usage commits and rolls back with the rows on
-- every instance. Counted: originals (files.size), stored variants (file_variants.size), video
-- outputs (video_outputs.size) and cached origin copies (origin_objects.size).

-- Adds n files of b bytes to a workspace's usage and returns the new totals. The EXISTS keeps a
-- deleted workspace's usage from coming back through the cascade of its rows.
CREATE FUNCTION trove_add_usage(ws uuid, n bigint, b bigint, OUT total_files bigint, OUT total_bytes bigint)
LANGUAGE plpgsql AS $$
BEGIN
  IF ws IS NULL OR (n = 0 AND b = 0) THEN RETURN; END IF;
  INSERT INTO workspace_usage AS u (workspace_id, files, storage_bytes)
  SELECT ws, n, b WHERE EXISTS (SELECT 1 FROM workspaces w WHERE w.id = ws)
  ON CONFLICT (workspace_id)
  DO UPDATE SET files = u.files + EXCLUDED.files, storage_bytes = u.storage_bytes + EXCLUDED.storage_bytes
  RETURNING u.files, u.storage_bytes INTO total_files, total_bytes;
END
$$;

-- A file insert is where quotas hold: the upsert above takes the usage row's lock, so concurrent
-- inserts on any instance see each other's totals, and one that passes a quota fails with its
-- statement (nothing inserted, nothing counted). The server maps the message to 403 QUOTA_EXCEEDED
-- (src/usage/quota.ts).
CREATE FUNCTION trove_files_usage() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  totals record;
  max_files_ bigint;
  max_bytes_ bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT * INTO totals FROM trove_add_usage(NEW.workspace_id, 1, NEW.size);
    SELECT w.max_files, w.max_storage_bytes INTO max_files_, max_bytes_ FROM workspaces w WHERE w.id = NEW.workspace_id;
    IF (max_files_ IS NOT NULL AND totals.total_files > max_files_)
       OR (max_bytes_ IS NOT NULL AND totals.total_bytes > max_bytes_) THEN
      -- The usage before this file, its size and the quotas, for the server's message.
      RAISE EXCEPTION 'trove_quota_exceeded % % % % %', totals.total_files - 1, totals.total_bytes - NEW.size,
        NEW.size, coalesce(max_files_::text, ''), coalesce(max_bytes_::text, '') USING ERRCODE = 'TRQ01';
    END IF;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM trove_add_usage(OLD.workspace_id, -1, -OLD.size);
  ELSIF OLD.workspace_id IS DISTINCT FROM NEW.workspace_id OR OLD.size IS DISTINCT FROM NEW.size THEN
    PERFORM trove_add_usage(OLD.workspace_id, -1, -OLD.size);
    PERFORM trove_add_usage(NEW.workspace_id, 1, NEW.size);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER files_usage AFTER INSERT OR DELETE OR UPDATE OF workspace_id, size ON files
FOR EACH ROW EXECUTE FUNCTION trove_files_usage();

-- Rows deleted by a cascade cannot find their workspace any more (the parent row is gone), so the
-- parent subtracts its children's bytes before it goes, and a child whose parent cannot be found
-- counts nothing.
CREATE FUNCTION trove_file_children_bytes(file uuid) RETURNS bigint
LANGUAGE sql STABLE AS $$
  SELECT (coalesce((SELECT sum(size) FROM file_variants WHERE file_id = file), 0)
        + coalesce((SELECT sum(size) FROM video_outputs WHERE file_id = file), 0))::bigint
$$;

CREATE FUNCTION trove_origin_children_bytes(origin uuid) RETURNS bigint
LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT sum(size) FROM file_variants WHERE origin_object_id = origin), 0)::bigint
$$;

CREATE FUNCTION trove_files_before_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trove_add_usage(OLD.workspace_id, 0, -trove_file_children_bytes(OLD.id));
  RETURN OLD;
END
$$;

CREATE TRIGGER files_usage_children BEFORE DELETE ON files
FOR EACH ROW EXECUTE FUNCTION trove_files_before_delete();

CREATE FUNCTION trove_sources_before_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trove_add_usage(OLD.workspace_id, 0,
    -(SELECT coalesce(sum(o.size + trove_origin_children_bytes(o.id)), 0)::bigint FROM origin_objects o WHERE o.source_id = OLD.id));
  RETURN OLD;
END
$$;

CREATE TRIGGER sources_usage_children BEFORE DELETE ON sources
FOR EACH ROW EXECUTE FUNCTION trove_sources_before_delete();

CREATE FUNCTION trove_origin_workspace(origin_source uuid) RETURNS uuid
LANGUAGE sql STABLE AS $$
  SELECT s.workspace_id FROM sources s WHERE s.id = origin_source
$$;

CREATE FUNCTION trove_origin_objects_before_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trove_add_usage(trove_origin_workspace(OLD.source_id), 0, -trove_origin_children_bytes(OLD.id));
  RETURN OLD;
END
$$;

CREATE TRIGGER origin_objects_usage_children BEFORE DELETE ON origin_objects
FOR EACH ROW EXECUTE FUNCTION trove_origin_objects_before_delete();

CREATE FUNCTION trove_origin_objects_usage() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    PERFORM trove_add_usage(trove_origin_workspace(OLD.source_id), 0, -OLD.size);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM trove_add_usage(trove_origin_workspace(NEW.source_id), 0, NEW.size);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER origin_objects_usage AFTER INSERT OR DELETE OR UPDATE OF source_id, size ON origin_objects
FOR EACH ROW EXECUTE FUNCTION trove_origin_objects_usage();

-- A variant's or video output's workspace, through its file or origin object; null once that is gone.
CREATE FUNCTION trove_derived_workspace(file uuid, origin uuid) RETURNS uuid
LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    (SELECT f.workspace_id FROM files f WHERE f.id = file),
    (SELECT s.workspace_id FROM origin_objects o JOIN sources s ON s.id = o.source_id WHERE o.id = origin))
$$;

CREATE FUNCTION trove_file_variants_usage() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- A recorded use sets the size it already had: nothing to count, and no lock on the usage row.
  IF TG_OP = 'UPDATE' AND OLD.size IS NOT DISTINCT FROM NEW.size AND OLD.file_id IS NOT DISTINCT FROM NEW.file_id
     AND OLD.origin_object_id IS NOT DISTINCT FROM NEW.origin_object_id THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    PERFORM trove_add_usage(trove_derived_workspace(OLD.file_id, OLD.origin_object_id), 0, -coalesce(OLD.size, 0));
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM trove_add_usage(trove_derived_workspace(NEW.file_id, NEW.origin_object_id), 0, coalesce(NEW.size, 0));
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER file_variants_usage AFTER INSERT OR DELETE OR UPDATE OF file_id, origin_object_id, size ON file_variants
FOR EACH ROW EXECUTE FUNCTION trove_file_variants_usage();

CREATE FUNCTION trove_video_outputs_usage() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    PERFORM trove_add_usage(trove_derived_workspace(OLD.file_id, NULL), 0, -coalesce(OLD.size, 0));
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM trove_add_usage(trove_derived_workspace(NEW.file_id, NULL), 0, coalesce(NEW.size, 0));
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER video_outputs_usage AFTER INSERT OR DELETE OR UPDATE OF file_id, size ON video_outputs
FOR EACH ROW EXECUTE FUNCTION trove_video_outputs_usage();

-- Usage of the workspaces that exist already (variants stored so far have no size: 0).
INSERT INTO workspace_usage (workspace_id, files, storage_bytes)
SELECT w.id,
       (SELECT count(*) FROM files f WHERE f.workspace_id = w.id),
       (SELECT coalesce(sum(f.size + trove_file_children_bytes(f.id)), 0) FROM files f WHERE f.workspace_id = w.id)
     + (SELECT coalesce(sum(o.size + trove_origin_children_bytes(o.id)), 0)
          FROM origin_objects o JOIN sources s ON s.id = o.source_id WHERE s.workspace_id = w.id)
FROM workspaces w;
