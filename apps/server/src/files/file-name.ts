/**
 * The stored name of a renamed file: the caller gives a base name, the file keeps its extension.
 *
 *   renamedFileName("dog", "jpg")       -> "dog.jpg"       (extension appended)
 *   renamedFileName("dog.jpg", "jpg")   -> "dog.jpg"       (already there: kept once)
 *   renamedFileName("dog.JPG", "jpg")   -> "dog.jpg"       (case normalised to the stored extension)
 *   renamedFileName("dog.jpeg", "jpg")  -> "dog.jpg"       (an alias of the same type: normalised)
 *   renamedFileName("dog.png", "jpg")   -> "dog.png.jpg"   (a rename never changes the type)
 *   renamedFileName(" dog. ", "jpg")    -> "dog.jpg"       (outer blanks and trailing dots dropped)
 *   renamedFileName("notes.txt", "")    -> "notes.txt"     (a file without extension: name as given)
 *
 * The extension is the one recorded at upload (`files.extension`, lowercase, from the content's
 * type), so the name in URLs keeps matching the bytes served. Names are compared and stored
 * case-sensitively otherwise.
 */
import { badRequest } from "../errors/index.js";
import { cleanName } from "./clean-name.js";
import { withoutTrailingDots } from "./without-trailing-dots.js";

/** Extensions that name the same type: a rename may use either spelling. */
const ALIASES: ReadonlyArray<readonly string[]> = [
  ["jpg", "jpeg", "jpe", "jfif"],
  ["tif", "tiff"],
  ["htm", "html"],
  ["mpg", "mpeg"],
  ["yml", "yaml"],
];

function spellingsOf(extension: string): readonly string[] {
  return ALIASES.find((group) => group.includes(extension)) ?? [extension];
}

export function renamedFileName(requested: string, extension: string): string {
  let stem = cleanName(requested);
  if (extension !== "") {
    const lower = stem.toLowerCase();
    for (const spelling of spellingsOf(extension)) {
      if (lower.endsWith(`.${spelling}`)) {
        stem = stem.slice(0, -(spelling.length + 1));
        break;
      }
    }
  }
  stem = withoutTrailingDots(stem);
  if (stem === "") throw badRequest("name must contain more than an extension");
  return extension === "" ? stem : `${stem}.${extension}`;
}
