import { readFileSync } from "node:fs";
import path from "node:path";
import { metrics } from "@yuelu/runtime";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

/**
 * The monitoring files of infra/ (docs/metrics.md) against the metrics the code registers: the alert
 * rules and the Grafana dashboard name only metric families that exist, the rules have the shape
 * Prometheus loads, and docker compose's optional Prometheus scrapes the api and worker nodes with the token.
 */

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

/** The families the issue names: dashboards and alerts depend on these exact names. */
const CONTRACT = [
  "yuelu_http_request_duration_seconds",
  "yuelu_queue_jobs",
  "yuelu_job_duration_seconds",
  "yuelu_transcribed_audio_seconds_total",
  "yuelu_asr_realtime_factor",
  "yuelu_payments_total",
];

async function knownSeries(): Promise<Set<string>> {
  const names = new Set<string>(["up"]);
  for (const family of await metrics.registry.getMetricsAsJSON()) {
    names.add(family.name);
    if (String(family.type) === "histogram")
      for (const s of ["_bucket", "_sum", "_count"]) names.add(`${family.name}${s}`);
  }
  return names;
}

/** Metric names an expression reads (ours, Node's and the process's; `up` is Prometheus's own). */
function namesIn(expr: string): string[] {
  return [...expr.matchAll(/\b(yuelu_\w+|nodejs_\w+|process_\w+|up)\b(?=\s*[{[)\s]|$)/g)].map((m) => m[1]!);
}

describe("metric families of packages/runtime/src/metrics.ts", () => {
  it("registers the contract's families once, with Node's default families", async () => {
    const names = await knownSeries();
    for (const name of [...CONTRACT, "process_cpu_user_seconds_total", "nodejs_eventloop_lag_seconds"]) {
      expect(names.has(name), name).toBe(true);
    }
  });
});

describe("infra/prometheus/alerts.yml", () => {
  const rules = parse(read("infra/prometheus/alerts.yml")) as {
    groups: { name: string; rules: Record<string, unknown>[] }[];
  };

  it("has the rules Prometheus loads: alert, expr, for, severity, summary", () => {
    expect(rules.groups.length).toBeGreaterThan(0);
    for (const group of rules.groups) {
      expect(group.name).toMatch(/\w/);
      for (const rule of group.rules) {
        expect(typeof rule.alert, JSON.stringify(rule)).toBe("string");
        expect(typeof rule.expr).toBe("string");
        expect(rule.for).toMatch(/^\d+[smh]$/);
        expect((rule.labels as Record<string, string>).severity).toMatch(/^(warning|critical)$/);
        expect((rule.annotations as Record<string, string>).summary).toMatch(/\w/);
      }
    }
  });

  it("covers queue backlog, job failures, p95 latency and event-loop lag, on metrics that exist", async () => {
    const all = rules.groups.flatMap((g) => g.rules);
    const exprOf = (alert: string) => String(all.find((r) => r.alert === alert)?.expr ?? "");
    expect(exprOf("YueluQueueBacklog")).toContain('yuelu_queue_jobs{state="waiting"}');
    expect(exprOf("YueluJobFailureRate")).toContain('yuelu_job_duration_seconds_count{outcome="failed"}');
    expect(exprOf("YueluHttpLatencyP95")).toMatch(
      /histogram_quantile\(0\.95,[\s\S]*yuelu_http_request_duration_seconds_bucket/,
    );
    expect(exprOf("YueluEventLoopLag")).toContain("nodejs_eventloop_lag");
    const known = await knownSeries();
    for (const rule of all) {
      const names = namesIn(String(rule.expr));
      expect(names.length, String(rule.alert)).toBeGreaterThan(0);
      for (const name of names) expect(known.has(name), `${rule.alert}: ${name}`).toBe(true);
    }
  });
});

describe("infra/grafana/yuelu-dashboard.json", () => {
  const dashboard = JSON.parse(read("infra/grafana/yuelu-dashboard.json")) as {
    title: string;
    uid: string;
    panels: { type: string; targets?: { expr: string }[] }[];
  };

  it("queries only metrics that exist, and shows every family of the contract", async () => {
    expect(dashboard.title).toBe("Yuelu");
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
    expect(exprs.length).toBeGreaterThan(10);
    const known = await knownSeries();
    const used = new Set<string>();
    for (const expr of exprs) {
      const names = namesIn(expr);
      expect(names.length, expr).toBeGreaterThan(0);
      for (const name of names) {
        expect(known.has(name), `${name} in ${expr}`).toBe(true);
        used.add(name.replace(/_(bucket|sum|count)$/, ""));
      }
    }
    for (const family of CONTRACT) expect(used.has(family), family).toBe(true);
  });
});

describe("Prometheus in docker compose", () => {
  const compose = parse(read("docker-compose.yml"), { merge: true }) as {
    services: Record<string, { profiles?: string[]; environment?: Record<string, string>; volumes?: string[] }>;
  };
  const config = parse(read("infra/prometheus/prometheus.yml")) as {
    rule_files: string[];
    scrape_configs: {
      job_name: string;
      metrics_path: string;
      authorization: { type: string; credentials_file: string };
      dns_sd_configs: { names: string[]; port: number }[];
    }[];
  };

  it("is optional (profile monitoring) and loads the config and rules of infra/prometheus", () => {
    const prometheus = compose.services.prometheus!;
    expect(prometheus.profiles).toEqual(["monitoring"]);
    expect(prometheus.volumes).toEqual(
      expect.arrayContaining([
        "./infra/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro",
        "./infra/prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro",
      ]),
    );
    expect(config.rule_files).toEqual(["/etc/prometheus/alerts.yml"]);
  });

  it("scrapes every api replica on PORT and every worker on its METRICS_PORT, with the bearer token", () => {
    const byName = Object.fromEntries(config.scrape_configs.map((c) => [c.job_name, c]));
    const api = byName["yuelu-api"]!;
    const worker = byName["yuelu-worker"]!;
    expect(api.dns_sd_configs[0]).toMatchObject({ names: ["api"], port: 8080 });
    expect(worker.dns_sd_configs[0]).toMatchObject({
      names: ["worker"],
      port: Number(compose.services.worker!.environment!.METRICS_PORT),
    });
    for (const job of [api, worker]) {
      expect(job.metrics_path).toBe("/metrics");
      expect(job.authorization.type).toBe("Bearer");
      expect(job.authorization.credentials_file).toBe("/tmp/metrics_token");
    }
    // the api and worker nodes get the token Prometheus sends
    // (compose fills in the operator's METRICS_TOKEN, the same one the prometheus service writes to its file)
    expect(compose.services.api!.environment!.METRICS_TOKEN).toMatch(/^\$\{METRICS_TOKEN\b/);
    expect(compose.services.worker!.environment!.METRICS_TOKEN).toMatch(/^\$\{METRICS_TOKEN\b/);
    expect(compose.services.prometheus!.environment!.METRICS_TOKEN).toMatch(/^\$\{METRICS_TOKEN\b/);
  });
});
