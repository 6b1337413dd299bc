import type { FileList } from "@trove/sdk/node";

/** A page of files as a model reads it: the fields it acts on, and where the list goes on. */
export function fileListOutput({ files, meta }: FileList) {
  return {
    files: files.map((file) => ({
      file_no: file.file_no,
      name: file.name,
      path: file.path,
      url: file.url,
      thumbnail: file.thumbnail,
      size: file.file_size,
      format: file.format,
      width: file.width,
      height: file.height,
      created_at: file.created_at,
    })),
    page: meta.page,
    limit: meta.limit,
    total: meta.total,
    has_more: meta.hasNext,
  };
}
