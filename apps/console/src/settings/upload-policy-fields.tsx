import type { CreateUploadTokenBody } from "@trove/sdk";

const MIB = 1024 * 1024;

/**
 * The upload-token policy's fields (packages/schema/src/upload-tokens.ts). All optional: an empty
 * field does not restrict. The server checks the whole policy and its message is shown as it is;
 * here only numbers are read as numbers.
 */
export function PolicyFields() {
  return (
    <>
      <fieldset>
        <legend>Token</legend>
        <NumberField name="expires_in" label="Expires in (seconds)" hint="1 to 86400; default 600" />
        <NumberField name="max_files" label="Files it may upload" hint="1 to 1000; default 1" />
      </fieldset>
      <fieldset>
        <legend>Where</legend>
        <label className="field">
          <span>Folder</span>
          <input name="folder" type="text" maxLength={1024} placeholder="avatars" />
        </label>
        <label className="field">
          <span>Folder match</span>
          <select name="folder_match" defaultValue="">
            <option value="">Exact (default)</option>
            <option value="exact">Exact</option>
            <option value="prefix">The folder or below it</option>
          </select>
        </label>
      </fieldset>
      <fieldset>
        <legend>What</legend>
        <NumberField name="max_file_size_mib" label="Largest file (MiB)" hint="decimals allowed" decimal />
        <label className="field">
          <span>Allowed types</span>
          <input name="allowed_types" type="text" placeholder="image/*, video/mp4" />
          <small className="muted">Comma-separated; judged by the content, not the name</small>
        </label>
        <label className="field">
          <span>Tags</span>
          <input name="tags" type="text" placeholder="from-token, avatars" />
          <small className="muted">Comma-separated; set on every file</small>
        </label>
        <NumberField
          name="file_expires_in"
          label="Files expire after (seconds)"
          hint="empty: files are kept"
        />
        <Check name="private" label="Files are private" />
        <Check name="allow_remote" label="Allow remote (URL) uploads" />
        <Check name="allow_multipart" label="Allow multipart uploads" defaultChecked />
        <Check name="allow_transforms" label="Allow store-time transforms" defaultChecked />
      </fieldset>
      <fieldset>
        <legend>Image dimensions (pixels)</legend>
        <NumberField name="min_width" label="Min width" />
        <NumberField name="max_width" label="Max width" />
        <NumberField name="min_height" label="Min height" />
        <NumberField name="max_height" label="Max height" />
      </fieldset>
    </>
  );
}

function NumberField(props: { name: string; label: string; hint?: string; decimal?: boolean }) {
  return (
    <label className="field">
      <span>{props.label}</span>
      <input name={props.name} type="number" min={0} step={props.decimal ? "any" : 1} inputMode="numeric" />
      {props.hint ? <small className="muted">{props.hint}</small> : null}
    </label>
  );
}

function Check(props: { name: string; label: string; defaultChecked?: boolean }) {
  return (
    <label className="check">
      <input name={props.name} type="checkbox" defaultChecked={props.defaultChecked ?? false} />
      <span>{props.label}</span>
    </label>
  );
}

const INTEGER_FIELDS = [
  "expires_in",
  "max_files",
  "file_expires_in",
  "min_width",
  "max_width",
  "min_height",
  "max_height",
] as const;

/** The request body of the form's values; throws on a number that is not one. */
export function policyOf(form: FormData): CreateUploadTokenBody {
  const text = (name: string) => String(form.get(name) ?? "").trim();
  const list = (name: string) =>
    text(name)
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item !== "");
  const body: CreateUploadTokenBody = {};
  for (const name of INTEGER_FIELDS) {
    const value = text(name);
    if (value === "") continue;
    const number = Number(value);
    if (!Number.isInteger(number)) throw new Error(`${name} must be a whole number`);
    body[name] = number;
  }
  const size = text("max_file_size_mib");
  if (size !== "") {
    const mib = Number(size);
    if (!Number.isFinite(mib) || mib <= 0)
      throw new Error("The largest file must be a positive number of MiB");
    body.max_file_size = Math.max(1, Math.round(mib * MIB));
  }
  if (text("folder") !== "") body.folder = text("folder");
  const match = text("folder_match");
  if (match === "exact" || match === "prefix") body.folder_match = match;
  if (list("allowed_types").length > 0) body.allowed_types = list("allowed_types");
  if (list("tags").length > 0) body.tags = list("tags");
  if (form.get("private") === "on") body.private = true;
  if (form.get("allow_remote") === "on") body.allow_remote = true;
  // Multipart and transforms are allowed unless the box is cleared: sent only to refuse them.
  if (form.get("allow_multipart") !== "on") body.allow_multipart = false;
  if (form.get("allow_transforms") !== "on") body.allow_transforms = false;
  return body;
}
