/**
 * The kinds of setting src/config/settings.ts declares, each with its one parser (a zod schema,
 * so every invalid variable is reported at once as `NAME: message`), what it accepts and its
 * default, in the words the README's table prints (src/config/settings-table.ts).
 *
 * Blank text: every kind but `int`, `word` and `choice` trims its value and reads a blank one as
 * unset (those three keep the stricter reading they always had: `HOST=""` is refused).
 */
import { z } from "zod";
import { parseByteSize } from "../byte-size.js";

/** Headings of the README's settings table, in its order. */
export const SETTING_GROUPS = [
  "Server",
  "Database",
  "Secrets and keys",
  "Development",
  "Storage",
  "Uploads",
  "Multipart uploads",
  "Upload policy of public keys",
  "Image work",
  "Video work",
  "Delivery host",
  "Sources' origins",
  "Rate limits",
  "Background work",
  "Observability",
] as const;
export type SettingGroup = (typeof SETTING_GROUPS)[number];

export type SettingKind = "int" | "boolean" | "bytes" | "enum" | "list" | "url" | "string";

export interface Setting<T = unknown> {
  readonly kind: SettingKind;
  readonly group: SettingGroup;
  readonly description: string;
  /** What a value looks like (README). */
  readonly accepts: string;
  /** The value when the variable is unset (README: `defaultText`). */
  readonly default: T;
  /** The default as the README shows it: the value, or what an unset variable means. */
  readonly defaultText: string;
  /** Whether `defaultText` is a value to type (`./.trove`) rather than words ("one per CPU core"). */
  readonly defaultIsValue: boolean;
  readonly schema: z.ZodType<T>;
}

interface Declared<D> {
  group: SettingGroup;
  description: string;
  default?: D;
  /** What unset means when there is no single default value ("one per CPU core"). */
  defaultText?: string;
}

/** Unset or blank: undefined; otherwise the trimmed text. */
export const trimmedText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === "" ? undefined : value.trim()));

function declare<T>(
  kind: SettingKind,
  accepts: string,
  options: Declared<unknown>,
  schema: z.ZodType<T>,
): Setting<T> {
  const shown = options.default === undefined ? "unset" : String(options.default);
  return {
    defaultIsValue: options.defaultText === undefined && options.default !== undefined,
    kind,
    group: options.group,
    description: options.description,
    accepts,
    default: options.default as T,
    defaultText: options.defaultText ?? shown,
    schema,
  };
}

type Value<D, T> = D extends undefined ? T | undefined : T;

/** An integer in a range. */
export function int<D extends number | undefined = undefined>(
  options: Declared<D> & { min: number; max?: number },
): Setting<Value<D, number>> {
  const ranged = z.coerce.number().int().min(options.min);
  const bounded = options.max === undefined ? ranged : ranged.max(options.max);
  const accepts =
    options.max === undefined ? `integer ≥ ${options.min}` : `integer ${options.min} to ${options.max}`;
  const schema = options.default === undefined ? bounded.optional() : bounded.default(options.default);
  return declare("int", accepts, options, schema as z.ZodType<Value<D, number>>);
}

/** The spellings of yes and no that Trove's own variables accept. */
const BOOLEAN_SPELLINGS = ["true", "false", "1", "0"] as const;

/**
 * The one reading of yes/no. `trove`: true, false, 1 or 0, anything else refused. `otel`: the
 * OpenTelemetry specification's reading of its own variables (`OTEL_SDK_DISABLED`), which the
 * SDK applies too: true in any case is true, anything else false.
 */
export function flag<D extends boolean | undefined = undefined>(
  options: Declared<D> & { spelling?: "trove" | "otel" },
): Setting<Value<D, boolean>> {
  const fallback = options.default;
  if (options.spelling === "otel") {
    const schema = trimmedText.transform((value) =>
      value === undefined ? fallback : value.toLowerCase() === "true",
    );
    return declare(
      "boolean",
      "true (any case) or anything else",
      options,
      schema as z.ZodType<Value<D, boolean>>,
    );
  }
  const schema = trimmedText
    .pipe(z.enum(BOOLEAN_SPELLINGS).optional())
    .transform((value) => (value === undefined ? fallback : value === "true" || value === "1"));
  return declare("boolean", "true, false, 1, 0", options, schema as z.ZodType<Value<D, boolean>>);
}

/**
 * A value read by an area's own parser (a size, CIDR ranges, origins), which throws an Error
 * whose message says what is wrong; unset or blank: the default.
 */
export function parsed<T, D extends T | undefined = undefined>(
  kind: SettingKind,
  accepts: string,
  parse: (text: string) => T,
  options: Declared<D>,
): Setting<Value<D, T>> {
  const fallback = options.default;
  const schema = trimmedText.transform((value, ctx) => {
    if (value === undefined) return fallback;
    try {
      return parse(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
      return z.NEVER;
    }
  });
  return declare(kind, accepts, options, schema as z.ZodType<Value<D, T>>);
}

/** A size in bytes: 512, 20MB, 1GiB (src/byte-size.ts). */
export function bytes<D extends number | undefined = undefined>(options: Declared<D>) {
  return parsed("bytes", "bytes or a size: 512, 20MB, 1GiB", parseByteSize, options);
}

/** An http(s) URL. */
export function url(options: Declared<undefined>): Setting<string | undefined> {
  return declare("url", "http(s) URL", options, trimmedText.pipe(z.url({ protocol: /^https?$/ }).optional()));
}

/** Trimmed text, blank is unset; `check` refines what is set. */
export function text<D extends string | undefined = undefined>(
  options: Declared<D> & { check?: z.ZodString; accepts?: string },
): Setting<Value<D, string>> {
  const fallback = options.default;
  const schema = trimmedText
    .pipe((options.check ?? z.string()).optional())
    .transform((value) => value ?? fallback);
  return declare("string", options.accepts ?? "text", options, schema as z.ZodType<Value<D, string>>);
}

/** Untrimmed text that must be set to something valid when given (`HOST=""` is refused). */
export function word(options: Declared<string> & { default: string; pattern?: [RegExp, string] }) {
  const checked = options.pattern ? z.string().regex(...options.pattern) : z.string().min(1);
  return declare("string", "text", options, checked.default(options.default) as z.ZodType<string>);
}

/** One of a few words; `trim`: blank is unset (otherwise the value is taken as given). */
export function choice<
  const V extends readonly [string, ...string[]],
  D extends V[number] | undefined = undefined,
>(values: V, options: Declared<D> & { trim?: boolean }): Setting<Value<D, V[number]>> {
  const one = z.enum(values);
  const schema = options.trim
    ? trimmedText.pipe(one.optional())
    : options.default === undefined
      ? one.optional()
      : one.default(options.default as never);
  return declare("enum", values.join(" | "), options, schema as unknown as z.ZodType<Value<D, V[number]>>);
}

/** A setting whose parser is a schema of its own (the dev keys' prefix check, TROVE_METRICS). */
export function custom<T>(kind: SettingKind, accepts: string, schema: z.ZodType<T>, options: Declared<T>) {
  return declare(kind, accepts, options, schema);
}
