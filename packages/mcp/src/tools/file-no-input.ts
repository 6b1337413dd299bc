import * as z from "zod";

/** A file's number, as the other tools answer it (`file_no`). */
export const fileNoInput = z
  .string()
  .regex(/^\d{1,19}$/, "a file_no is a string of digits")
  .describe("The file's file_no, as list_files, search_files or an upload answered it.");
