/// <reference path="./parse-prometheus-text-format.d.ts" />
/**
 * Reads a Prometheus text scrape for metrics tests, parsed by parse-prometheus-text-format:
 *
 *   const scrape = parseScrape(res.body);
 *   scrape.value("trove_uploads_total", { path: "direct", outcome: "stored" });   // 3, or undefined
 *   scrape.seriesCount();   // label sets over every family
 *
 * Histograms are read as their plain `_bucket`, `_sum` and `_count` series: the parser folds a
 * histogram's label sets into one and drops their labels, so their TYPE line is given as untyped.
 */
// The reference brings the package's declaration along to every program that includes this file
// (the e2e suites read scrapes too), not only to the server's tests.
import parsePrometheusTextFormat, { type PrometheusSample } from "parse-prometheus-text-format";

export interface Scrape {
  /** A counter's or gauge's value for exactly `labels`; undefined when there is no such series. */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** A histogram's observation count for exactly `labels`. */
  count(name: string, labels?: Record<string, string>): number | undefined;
  /** Every label set of `name`. */
  labelSets(name: string): Array<Record<string, string>>;
  /** Series across every family (each histogram bucket counts as one). */
  seriesCount(): number;
}

function sameLabels(a: Record<string, string> | undefined, b: Record<string, string>): boolean {
  const left = a ?? {};
  const keys = Object.keys(left);
  return keys.length === Object.keys(b).length && keys.every((key) => left[key] === b[key]);
}

export function parseScrape(text: string): Scrape {
  const families = parsePrometheusTextFormat(text.replace(/^# TYPE (\S+) histogram$/gm, "# TYPE $1 untyped"));
  const sample = (name: string, labels: Record<string, string>): PrometheusSample | undefined =>
    families.find((family) => family.name === name)?.metrics.find((m) => sameLabels(m.labels, labels));
  return {
    value(name, labels = {}) {
      const found = sample(name, labels);
      return found?.value === undefined ? undefined : Number(found.value);
    },
    count(name, labels = {}) {
      const found = sample(`${name}_count`, labels);
      return found?.value === undefined ? undefined : Number(found.value);
    },
    labelSets: (name) =>
      families.find((family) => family.name === name)?.metrics.map((m) => m.labels ?? {}) ?? [],
    seriesCount: () => families.reduce((total, family) => total + family.metrics.length, 0),
  };
}
