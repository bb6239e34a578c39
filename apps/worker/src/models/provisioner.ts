import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { ModelFile, ModelSpec } from "./catalog.ts";
import { type Checksum, DownloadError, type DownloadFailure, downloadFile } from "./download.ts";
import type { ModelSource } from "./sources.ts";

/**
 * Gets the speech models this worker needs onto its disk by itself: on start the worker asks for
 * the model of its Chinese engine, and when it is missing (and ASR_AUTO_FETCH is on) it downloads
 * it in the background — from the first of its sources (sources.ts) that serves each file with the
 * right checksum; resumable, verified, atomically moved into place (download.ts) — retrying with
 * backoff when every source fails. Its state (missing / downloading n% from a source / ready, and from
 * where / failed, and why at each source) goes into the worker's heartbeat: users see the state next to
 * the language choice, operators the sources in /readyz and the console; progress is logged every 10 %.
 */

/** A source that did not deliver a file, and why (for operators: hosts, statuses, checksums). */
export interface SourceFailure {
  source: string;
  file: string;
  /** how it failed; "not-held": the source has no copy of the model */
  reason: DownloadFailure | "not-held";
  detail: string;
}

export type ModelState =
  /** `source`: where this worker downloaded it (absent for files it found on disk) */
  | { state: "ready"; source?: string; failures?: SourceFailure[] }
  | { state: "missing" }
  | { state: "downloading"; progress: number; source: string }
  | { state: "failed"; detail: string; failures: SourceFailure[] };

/** A model wanted in a folder (whisper: WHISPER_MODEL's folder; sherpa: SHERPA_MODEL_DIR). */
export interface WantedModel {
  spec: ModelSpec;
  dir: string;
}

export interface ProvisionerOptions {
  /** where files come from, in the order they are tried (modelSources(config) in sources.ts) */
  sources: ModelSource[];
  autoFetch: boolean;
  /**
   * The operator's SHA-256s (ASR_MODEL_SHA256: `name=hex,...`, or one hex for a one-file model), for
   * files the catalog pins no checksum for.
   */
  sha256?: string;
  log: { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
  /** called when a state changes (the worker then beats its heartbeat at once) */
  onChange?: () => void;
}

/** Every source failed for a file (the failures say why, source by source). */
export class ModelFetchError extends Error {
  constructor(readonly failures: SourceFailure[]) {
    super(describeFailures(failures));
    this.name = "ModelFetchError";
  }
}

/** "huggingface (tokens.txt): unreachable: …; modelscope (tokens.txt): checksum: …" — for the log. */
export function describeFailures(failures: SourceFailure[]): string {
  if (failures.length === 0) return "no model source is configured";
  return failures.map((f) => `${f.source} (${f.file}): ${f.reason}: ${f.detail}`).join("; ");
}

/** What a file's download tells the provisioner: which source it tries, and how far it is. */
interface FileProgress {
  starting(source: ModelSource): void;
  progress(received: number, total: number | undefined, source: ModelSource): void;
}

const keyOf = (want: WantedModel) => `${want.spec.id}@${want.dir}`;

/** After a failed download, the next try waits this long (then longer). */
const RETRY_MS = [60_000, 5 * 60_000, 30 * 60_000];

/** The sources in their order, the one that served the model's previous file first (its files stay together). */
function preferring(sources: ModelSource[], preferred: ModelSource | undefined): ModelSource[] {
  return preferred ? [preferred, ...sources.filter((s) => s !== preferred)] : sources;
}

export class ModelProvisioner {
  private readonly states = new Map<string, ModelState>();
  /** where the models this worker downloaded came from (a ready model's state is read from the disk) */
  private readonly fetched = new Map<string, { source: string; failures: SourceFailure[] }>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();
  private readonly retryTimers = new Set<NodeJS.Timeout>();

  constructor(private readonly options: ProvisionerOptions) {}

  /** Where the model's files live (all of them must exist for it to be ready). */
  static filesOf(want: WantedModel): string[] {
    return want.spec.files.map((f) => path.join(want.dir, f.name));
  }

  static isReady(want: WantedModel): boolean {
    return ModelProvisioner.filesOf(want).every((f) => existsSync(f) && statSync(f).size > 0);
  }

  get autoFetch(): boolean {
    return this.options.autoFetch;
  }

  /** The names of the sources, in the order they are tried. */
  get sourceNames(): string[] {
    return this.options.sources.map((s) => s.name);
  }

  stateOf(want: WantedModel): ModelState {
    if (ModelProvisioner.isReady(want)) return { state: "ready", ...this.fetched.get(keyOf(want)) };
    return this.states.get(keyOf(want)) ?? { state: "missing" };
  }

  /** Starts the background download of a missing model when auto-fetch is on; does nothing otherwise. */
  ensure(want: WantedModel, attempt = 0): void {
    const key = keyOf(want);
    if (!this.options.autoFetch || ModelProvisioner.isReady(want) || this.running.has(key)) return;
    if (this.abort.signal.aborted) return;
    const run = this.fetch(want)
      .catch((error: unknown) => {
        if (this.abort.signal.aborted) return;
        const delay = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]!;
        this.options.log.warn(
          { model: want.spec.id, err: (error as Error).message, retryInSeconds: delay / 1000 },
          "speech model download failed",
        );
        const timer = setTimeout(() => this.ensure(want, attempt + 1), delay);
        timer.unref();
        this.retryTimers.add(timer);
      })
      .finally(() => this.running.delete(key));
    this.running.set(key, run);
  }

  /** Whether a download is under way (a sleeping worker would cut it). */
  get downloading(): boolean {
    return this.running.size > 0;
  }

  /** Waits for the downloads under way (tests, and the CLI). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running.values()]);
  }

  /** Downloads every missing file of the model now (the worker's background fetch, and the CLI). */
  async fetch(want: WantedModel, onProgress?: (percent: number) => void): Promise<void> {
    const dests = ModelProvisioner.filesOf(want);
    const todo = want.spec.files.map((file, i) => ({ file, dest: dests[i]! })).filter(({ dest }) => !existsSync(dest));
    const failures: SourceFailure[] = [];
    const used = new Set<string>();
    this.options.log.info({ model: want.spec.id, sources: this.sourceNames }, "downloading a speech model");
    const progressOf = this.progressReporter(want, todo.length, onProgress);
    let served: ModelSource | undefined;
    try {
      for (const [n, { file, dest }] of todo.entries()) {
        const sources = preferring(this.options.sources, served);
        served = await this.fetchFile(want, file, dest, sources, failures, progressOf(n));
        used.add(served.name);
      }
    } catch (error) {
      const detail = error instanceof DownloadError ? `${error.kind}: ${error.message}` : (error as Error).message;
      this.set(want, { state: "failed", detail, failures });
      throw error;
    }
    this.ready(want, [...used].join(", "), failures);
  }

  stop(): void {
    this.abort.abort();
    for (const timer of this.retryTimers) clearTimeout(timer);
  }

  /** The model is in place: from now on its state is read from the disk, and where it came from remembered. */
  private ready(want: WantedModel, source: string, failures: SourceFailure[]): void {
    this.states.delete(keyOf(want));
    if (source) this.fetched.set(keyOf(want), { source, failures });
    this.options.onChange?.();
    this.options.log.info(
      { model: want.spec.id, dir: want.dir, source },
      `speech model ready (from ${source || "the disk"})`,
    );
  }

  /**
   * What file `n` of `count` reports while it downloads: the model's state (the largest file dominates:
   * files count evenly, each by its bytes), the caller's percentage, and a log line every 10 %.
   */
  private progressReporter(want: WantedModel, count: number, onProgress?: (percent: number) => void) {
    let logged = 0;
    return (n: number): FileProgress => ({
      starting: (source) => {
        const progress = Math.floor((n / count) * 100);
        this.set(want, { state: "downloading", progress, source: source.name });
      },
      progress: (received, total, source) => {
        if (!total) return;
        const percent = Math.floor(((n + received / total) / count) * 100);
        this.set(want, { state: "downloading", progress: Math.min(99, percent), source: source.name });
        onProgress?.(percent);
        if (percent < logged + 10) return;
        logged = percent - (percent % 10);
        this.options.log.info({ model: want.spec.id, source: source.name, percent: logged }, "speech model download");
      },
    });
  }

  /**
   * One file from the first source that serves it with the right checksum: each failure is noted
   * (and logged) and the next source tried. Returns the source that served it.
   */
  private async fetchFile(
    want: WantedModel,
    file: ModelFile,
    dest: string,
    sources: ModelSource[],
    failures: SourceFailure[],
    report: FileProgress,
  ): Promise<ModelSource> {
    const { spec } = want;
    const expected = this.expectedOf(spec, file);
    const failed = (source: ModelSource, reason: SourceFailure["reason"], detail: string) => {
      failures.push({ source: source.name, file: file.name, reason, detail });
      this.options.log.warn(
        { model: spec.id, file: file.name, source: source.name, reason, err: detail },
        "speech model source skipped",
      );
    };
    for (const source of sources) {
      const url = source.urlOf(spec, file);
      if (!url) {
        failed(source, "not-held", `${source.name} holds no copy of ${spec.id}`);
        continue;
      }
      if (!expected && !source.publishesChecksums) {
        failed(source, "no-checksum", `${file.name} has no pinned checksum, and ${source.name}'s own are not trusted`);
        continue;
      }
      report.starting(source);
      try {
        await downloadFile({
          url,
          dest,
          expected,
          signal: this.abort.signal,
          onProgress: (received, total) => report.progress(received, total, source),
        });
        this.options.log.info(
          { model: spec.id, file: file.name, source: source.name, url },
          "speech model file verified",
        );
        return source;
      } catch (error) {
        if (this.abort.signal.aborted) throw error;
        if (!(error instanceof DownloadError)) throw error; // the disk, not the source
        failed(source, error.kind, error.message);
      }
    }
    throw new ModelFetchError(failures);
  }

  /**
   * What a file must hash to: the checksum we pin (whichever source serves it), else the operator's
   * ASR_MODEL_SHA256, else (undefined) the one a hub publishes — download.ts refuses a file nobody
   * vouches for.
   */
  private expectedOf(spec: ModelSpec, file: ModelFile): Checksum | undefined {
    if (file.sha1 || file.sha256) return { sha1: file.sha1, sha256: file.sha256 };
    const given = this.options.sha256?.trim();
    if (!given) return undefined;
    if (/^[0-9a-f]{64}$/i.test(given)) return spec.files.length === 1 ? { sha256: given } : undefined;
    for (const pair of given.split(",")) {
      const [name, hex] = pair.split("=").map((s) => s.trim());
      if (name === file.name && hex) return { sha256: hex };
    }
    return undefined;
  }

  private set(want: WantedModel, state: ModelState): void {
    const key = keyOf(want);
    const before = this.states.get(key);
    this.states.set(key, state);
    if (JSON.stringify(before) !== JSON.stringify(state)) this.options.onChange?.();
  }
}
