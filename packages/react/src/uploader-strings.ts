/**
 * Every word `<TroveUploader>` and `<TroveUploaderModal>` show or announce, in English. Pass
 * `strings` with the ones to replace (any subset); sentences with values in them are functions,
 * so a translation can put the values where its grammar wants them. Counts go through
 * `Intl.PluralRules` and sizes through `Intl.NumberFormat`, both with `locale`.
 */
import type { UploadStatus } from "./upload-state.js";

/** A word for each plural category a language uses (`one`, `other`, and `zero`/`two`/`few`/`many`). */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

export interface UploaderStrings {
  /** BCP 47 tag for numbers, sizes and plurals, e.g. `"fr"`. Default: the browser's. */
  locale: string | undefined;
  /** The drop zone's text. */
  dropLabel: string;
  /** The overlay while files are dragged over the page (`dropTarget="page"`). */
  dropOverlay: string;
  camera: string;
  fromLink: string;
  /** The URL field's label. */
  linkLabel: string;
  linkPlaceholder: string;
  linkSubmit: string;
  linkCancel: string;
  /** Said when the field holds no http(s) URL. */
  linkInvalid: string;
  /** The list of uploads' accessible name. */
  uploadsList: string;
  status: Record<UploadStatus, string>;
  /** Button verbs; each button also carries the file's name for screen readers. */
  pause: string;
  resume: string;
  cancel: string;
  retry: string;
  remove: string;
  edit: string;
  forget: string;
  /** The button that starts waiting files when uploads do not start by themselves. */
  startAll: (count: number, files: string) => string;
  /** `files(3)` → "3 files". */
  files: PluralForms;
  sentOf: (sent: string, total: string) => string;
  /** The line over the list: `total("3 files", "1.2 MB", "4.0 MB")`. */
  total: (files: string, sent: string, size: string) => string;
  confirmed: (bytes: string) => string;
  timeLeft: (duration: string) => string;
  resumeStored: (name: string, percent: string) => string;
  rejectedType: (name: string) => string;
  rejectedSize: (name: string, size: string, limit: string) => string;
  rejectedDimensions: (name: string, width: number, height: number, rule: string) => string;
  /** The rule a refused image broke, e.g. "at least 800 px wide". */
  minWidth: (px: number) => string;
  maxWidth: (px: number) => string;
  minHeight: (px: number) => string;
  maxHeight: (px: number) => string;
  /** The live region's sentences. */
  announceStatus: (name: string, status: UploadStatus, percent: string, error: string | undefined) => string;
  announceProgress: (name: string, percent: string) => string;
  /** The modal's title and its close button. */
  modalTitle: string;
  close: string;
  /** The preview's text alternative (previews are decorative next to the name, so empty by default). */
  previewAlt: string;
}

export const ENGLISH: UploaderStrings = {
  locale: undefined,
  dropLabel: "Drop files here, paste, or click to choose",
  dropOverlay: "Drop files to upload",
  camera: "Camera",
  fromLink: "From a link",
  linkLabel: "File URL",
  linkPlaceholder: "https://example.com/photo.jpg",
  linkSubmit: "Upload link",
  linkCancel: "Cancel",
  linkInvalid: "Enter a link that starts with http:// or https://",
  uploadsList: "Uploads",
  status: {
    idle: "Waiting",
    uploading: "Uploading",
    paused: "Paused",
    done: "Uploaded",
    error: "Failed",
    aborted: "Cancelled",
  },
  pause: "Pause",
  resume: "Resume",
  cancel: "Cancel",
  retry: "Retry",
  remove: "Remove",
  edit: "Edit",
  forget: "Forget",
  startAll: (_count, files) => `Upload ${files}`,
  files: { one: "# file", other: "# files" },
  sentOf: (sent, total) => `${sent} of ${total}`,
  total: (files, sent, size) => `${files} · ${sent} of ${size}`,
  confirmed: (bytes) => `${bytes} confirmed`,
  timeLeft: (duration) => `${duration} left`,
  resumeStored: (name, percent) => `Resume ${name} (${percent}): choose the file again.`,
  rejectedType: (name) => `${name}: this type of file is not accepted here`,
  rejectedSize: (name, size, limit) => `${name} is ${size}: the limit is ${limit}`,
  rejectedDimensions: (name, width, height, rule) => `${name} is ${width}×${height} px: it must be ${rule}`,
  minWidth: (px) => `at least ${px} px wide`,
  maxWidth: (px) => `at most ${px} px wide`,
  minHeight: (px) => `at least ${px} px high`,
  maxHeight: (px) => `at most ${px} px high`,
  announceStatus: (name, status, percent, error) => {
    const said: Record<UploadStatus, string> = {
      idle: "waiting",
      uploading: "uploading",
      paused: `paused at ${percent}`,
      done: "uploaded",
      error: `failed: ${error ?? "unknown error"}`,
      aborted: "cancelled",
    };
    return `${name}: ${said[status]}`;
  },
  announceProgress: (name, percent) => `${name}: ${percent}`,
  modalTitle: "Upload files",
  close: "Close",
  previewAlt: "",
};

/** The English defaults with `overrides` on top. */
export function uploaderStrings(overrides: Partial<UploaderStrings> | undefined): UploaderStrings {
  if (!overrides) return ENGLISH;
  return { ...ENGLISH, ...overrides, status: { ...ENGLISH.status, ...overrides.status } };
}

/** `count` with the plural form its language takes: `#` in the form is replaced by the number. */
export function plural(forms: PluralForms, count: number, locale: string | undefined): string {
  const category = new Intl.PluralRules(locale).select(count);
  const form = forms[category] ?? forms.other;
  return form.replaceAll("#", new Intl.NumberFormat(locale).format(count));
}

/** `52%` in the locale's way (`52 %` in French). */
export function percent(value: number, locale: string | undefined): string {
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0 }).format(value / 100);
}
