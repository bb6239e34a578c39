import type { Config } from "@yuelu/runtime";

/** What the worker reports about one transcription language (ARCHITECTURE §7). */
export interface EngineAvailability {
  language: "zh" | "en" | "auto";
  engine: string;
  available: boolean;
  /** what to install when not available */
  missing?: string;
}

type AvailabilityFn = (config: Config) => EngineAvailability[] | Promise<EngineAvailability[]>;

const LANGUAGES = ["zh", "en", "auto"] as const;
const CACHE_MS = 30_000;

let loaded: Promise<AvailabilityFn | undefined> | undefined;
let cached: { at: number; value: EngineAvailability[] } | undefined;

/**
 * `engineAvailability` of @yuelu/worker, loaded lazily so this module compiles and runs whether or
 * not the worker exports it yet. Without it every language reports engine "unknown", not available.
 */
function loadWorkerFn(): Promise<AvailabilityFn | undefined> {
  loaded ??= import("@yuelu/worker")
    .then((mod) => {
      const fn = (mod as unknown as { engineAvailability?: unknown }).engineAvailability;
      return typeof fn === "function" ? (fn as AvailabilityFn) : undefined;
    })
    .catch(() => undefined);
  return loaded;
}

/** One entry per language zh, en, auto (cached for 30 s: engines are installed, not toggled). */
export async function engineAvailability(config: Config, now = Date.now()): Promise<EngineAvailability[]> {
  if (cached && now - cached.at < CACHE_MS) return cached.value;
  const fn = await loadWorkerFn();
  let reported: EngineAvailability[] = [];
  if (fn) {
    try {
      const value = await fn(config);
      if (Array.isArray(value)) reported = value;
    } catch {
      reported = [];
    }
  }
  const value = LANGUAGES.map(
    (language): EngineAvailability =>
      reported.find((r) => r.language === language) ?? {
        language,
        engine: "unknown",
        available: false,
        missing: "engine availability unknown: the worker does not report it",
      },
  );
  cached = { at: now, value };
  return value;
}
