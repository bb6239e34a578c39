import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { ModelFile, ModelSpec } from "./catalog.ts";
import { type Checksum, DownloadError, downloadFile } from "./download.ts";

/**
 * Gets the speech models this worker needs onto its disk by itself: on start the worker asks for
 * the model of its Chinese engine, and when it is missing (and ASR_AUTO_FETCH is on) it downloads
 * it in the background — resumable, verified, atomically moved into place (download.ts) — retrying
 * with backoff when the network fails. Its state (missing / downloading n% / ready / failed: why)
 * goes into the worker's heartbeat, so users see it next to the language choice and operators in
 * /readyz; progress is logged every 10 %.
 */

export type ModelState =
  | { state: "ready" }
  | { state: "missing" }
  | { state: "downloading"; progress: number }
  | { state: "failed"; detail: string };

/** A model wanted in a folder (whisper: WHISPER_MODEL's folder; sherpa: SHERPA_MODEL_DIR). */
export interface WantedModel {
  spec: ModelSpec;
  dir: string;
}

export interface ProvisionerOptions {
  /** the hub: HF_ENDPOINT (default https://huggingface.co), or a mirror such as https://hf-mirror.com */
  endpoint: string;
  autoFetch: boolean;
  /**
   * A plain web folder holding the model's files, instead of the hub (ASR_MODEL_URL), and the
   * SHA-256s to check them against (ASR_MODEL_SHA256: `name=hex,...`, or one hex for a one-file model).
   */
  folderUrl?: string;
  sha256?: string;
  log: { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
  /** called when a state changes (the worker then beats its heartbeat at once) */
  onChange?: () => void;
}

const keyOf = (want: WantedModel) => `${want.spec.id}@${want.dir}`;

/** After a failed download, the next try waits this long (then longer). */
const RETRY_MS = [60_000, 5 * 60_000, 30 * 60_000];

export class ModelProvisioner {
  private readonly states = new Map<string, ModelState>();
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

  stateOf(want: WantedModel): ModelState {
    if (ModelProvisioner.isReady(want)) return { state: "ready" };
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

  /** Waits for the downloads under way (tests, and the CLI). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running.values()]);
  }

  /** Downloads every missing file of the model now (the worker's background fetch, and the CLI). */
  async fetch(want: WantedModel, onProgress?: (percent: number) => void): Promise<void> {
    const { spec } = want;
    const dests = ModelProvisioner.filesOf(want);
    const todo = spec.files.map((file, i) => ({ file, dest: dests[i]! })).filter(({ dest }) => !existsSync(dest));
    this.set(want, { state: "downloading", progress: 0 });
    const from = this.options.folderUrl ?? this.options.endpoint;
    this.options.log.info({ model: spec.id, from: new URL(from).host }, "downloading a speech model");
    let logged = 0;
    try {
      for (const [n, { file, dest }] of todo.entries()) {
        const url = this.options.folderUrl
          ? `${this.options.folderUrl.replace(/\/+$/, "")}/${file.name}`
          : `${this.options.endpoint.replace(/\/+$/, "")}/${spec.repo}/resolve/main/${file.name}`;
        await downloadFile({
          url,
          dest,
          expected: this.expectedOf(spec, file),
          signal: this.abort.signal,
          onProgress: (received, total) => {
            if (!total) return;
            // the largest file dominates: count files evenly, each by its bytes
            const percent = Math.floor(((n + received / total) / todo.length) * 100);
            this.set(want, { state: "downloading", progress: Math.min(99, percent) });
            onProgress?.(percent);
            if (percent >= logged + 10) {
              logged = percent - (percent % 10);
              this.options.log.info({ model: spec.id, percent: logged }, "speech model download");
            }
          },
        });
      }
      this.states.delete(keyOf(want));
      this.options.onChange?.();
      this.options.log.info({ model: spec.id, dir: want.dir }, "speech model ready");
    } catch (error) {
      const detail = error instanceof DownloadError ? `${error.kind}: ${error.message}` : (error as Error).message;
      this.set(want, { state: "failed", detail });
      throw error;
    }
  }

  stop(): void {
    this.abort.abort();
    for (const timer of this.retryTimers) clearTimeout(timer);
  }

  /**
   * What a file must hash to: the checksum we pin, else the operator's ASR_MODEL_SHA256, else
   * (undefined) the one the hub publishes — download.ts refuses a file nobody vouches for.
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
    const changed =
      before?.state !== state.state ||
      (state.state === "downloading" && before?.state === "downloading" && state.progress !== before.progress);
    if (changed) this.options.onChange?.();
  }
}
