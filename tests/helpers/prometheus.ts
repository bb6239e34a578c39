import parsePrometheusTextFormat from "parse-prometheus-text-format";

/** One series of a family: a value (counter, gauge), or a histogram's count, sum and cumulative buckets. */
export interface Series {
  labels: Record<string, string>;
  value?: number;
  count?: number;
  sum?: number;
  /** cumulative counts by upper bound ("+Inf" included) */
  buckets?: Record<string, number>;
}

export interface Family {
  type: string;
  help: string;
  series: Series[];
}

/**
 * Reads a /metrics answer with a real Prometheus text-format parser (parse-prometheus-text-format).
 * That parser merges the series of a labelled histogram into one (it keys buckets by `le` only), so
 * histogram families are read a second time with their TYPE line made "untyped": the parser then
 * gives every `_bucket`, `_sum` and `_count` line with its labels, and they are grouped here by label set.
 */
export function readMetrics(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const histograms = new Set<string>();
  for (const family of parsePrometheusTextFormat(text)) {
    families.set(family.name, {
      type: family.type,
      help: family.help,
      series: family.metrics.map((m) => ({
        labels: m.labels ?? {},
        ...(m.value !== undefined ? { value: Number(m.value) } : {}),
      })),
    });
    if (family.type === "HISTOGRAM") histograms.add(family.name);
  }
  if (histograms.size === 0) return families;

  const untyped = text.replace(/^# TYPE (\S+) histogram$/gm, (line, name: string) =>
    histograms.has(name) ? `# TYPE ${name} untyped` : line,
  );
  const grouped = new Map<string, Map<string, Series>>();
  for (const raw of parsePrometheusTextFormat(untyped)) {
    const match = /^(.*)_(bucket|sum|count)$/.exec(raw.name);
    if (!match || !histograms.has(match[1]!)) continue;
    const [, name, part] = match as unknown as [string, string, "bucket" | "sum" | "count"];
    const byLabels = grouped.get(name) ?? new Map<string, Series>();
    grouped.set(name, byLabels);
    for (const sample of raw.metrics) {
      const { le, ...labels } = sample.labels ?? {};
      const key = JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));
      const series = byLabels.get(key) ?? { labels, buckets: {} };
      byLabels.set(key, series);
      const value = Number(sample.value);
      if (part === "bucket" && le !== undefined) series.buckets![le] = value;
      else if (part === "sum") series.sum = value;
      else if (part === "count") series.count = value;
    }
  }
  for (const name of histograms) families.get(name)!.series = [...(grouped.get(name)?.values() ?? [])];
  return families;
}

/** The series of `family` whose labels include `labels`. */
export function seriesOf(families: Map<string, Family>, family: string, labels: Record<string, string> = {}): Series[] {
  return (families.get(family)?.series ?? []).filter((s) =>
    Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
}
