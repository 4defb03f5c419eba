import parsePrometheusTextFormat, { type ParsedFamily } from "parse-prometheus-text-format";

/**
 * A scrape of /metrics read as Prometheus reads it: the exposition text through a parser of the
 * text format (parse-prometheus-text-format), then one sample's value by name and labels.
 */
export class Scrape {
  readonly families: ParsedFamily[];
  /**
   * The same text read with its histograms' HELP and TYPE lines left out: the parser folds a
   * histogram's labelled series into one (its `flattenMetrics` keeps the buckets of the last label
   * set and drops `_count` and `_sum`), so each `_count` sample is read as the plain sample it is.
   */
  readonly untyped: ParsedFamily[];
  constructor(text: string) {
    this.families = parsePrometheusTextFormat(text);
    const histograms = new Set(
      this.families.filter((family) => family.type === "HISTOGRAM").map((family) => family.name),
    );
    const comments = /^# (?:HELP|TYPE) (\S+).*$/gm;
    this.untyped = parsePrometheusTextFormat(
      text.replace(comments, (line, name: string) => (histograms.has(name) ? "" : line)),
    );
  }

  family(name: string): ParsedFamily | undefined {
    return this.families.find((family) => family.name === name);
  }

  /** A counter's or gauge's value (0 when the series does not exist yet). */
  value(name: string, labels: Record<string, string> = {}): number {
    const sample = this.sample(name, labels);
    return sample?.value === undefined ? 0 : Number(sample.value);
  }

  /** A histogram's observation count (its `_count` series), summed over the series matching `labels`. */
  count(name: string, labels: Record<string, string> = {}): number {
    const series = this.untyped
      .filter((family) => family.name === `${name}_count`)
      .flatMap((family) => family.metrics);
    return series
      .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value))
      .reduce((total, sample) => total + Number(sample.value ?? 0), 0);
  }

  /** Every label set a family has for `label`. */
  labelValues(name: string, label: string): string[] {
    return (this.family(name)?.metrics ?? []).map((sample) => sample.labels?.[label] ?? "");
  }

  private samples(name: string, labels: Record<string, string>) {
    return (this.family(name)?.metrics ?? []).filter((sample) =>
      Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value),
    );
  }

  private sample(name: string, labels: Record<string, string>) {
    return this.samples(name, labels)[0];
  }
}
