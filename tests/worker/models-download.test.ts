import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "@yuelu/runtime";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { engineMissing, engineReports } from "../../apps/worker/src/engines/asr/factory.ts";
import { type ModelSpec, SHERPA_MODELS } from "../../apps/worker/src/models/catalog.ts";
import { DownloadError, downloadFile } from "../../apps/worker/src/models/download.ts";
import { ModelProvisioner, type ModelState } from "../../apps/worker/src/models/provisioner.ts";

/**
 * The model downloader and provisioner against a local HTTP server playing a Hugging Face–style hub
 * (a test double: FakeHub). Nothing here reaches the internet.
 */

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const gitSha1 = (b: Buffer) =>
  createHash("sha1")
    .update(Buffer.concat([Buffer.from(`blob ${b.length}\0`), b]))
    .digest("hex");

interface FakeHubOptions {
  /** cut the connection after this many bytes on the next request of each path (once) */
  cutAfter?: number;
  /** send this many bytes per chunk, with a pause, so progress can be seen */
  slow?: boolean;
}

/** Test double: a hub serving files under /<repo>/resolve/main/<name>, with Range and ETags. */
class FakeHub {
  readonly files = new Map<string, Buffer>();
  readonly requests: { method: string; url: string; range?: string }[] = [];
  private readonly cut = new Set<string>();
  private server!: Server;
  url = "";

  constructor(private readonly options: FakeHubOptions = {}) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }

  private handle(req: IncomingMessage, res: import("node:http").ServerResponse): void {
    const url = req.url ?? "";
    this.requests.push({ method: req.method ?? "", url, range: req.headers.range });
    const body = this.files.get(url);
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    // big files carry their LFS SHA-256, small ones their git blob id (as huggingface.co does)
    const etag = body.length > 1000 ? { "x-linked-etag": `"${sha256(body)}"` } : { etag: `"${gitSha1(body)}"` };
    if (req.method === "HEAD") {
      res.writeHead(200, { ...etag, "content-length": body.length }).end();
      return;
    }
    const from = Number(/bytes=(\d+)-/.exec(req.headers.range ?? "")?.[1] ?? 0);
    if (from >= body.length) {
      res.writeHead(416).end();
      return;
    }
    const part = body.subarray(from);
    res.writeHead(from > 0 ? 206 : 200, { ...etag, "content-length": part.length });
    const cutAfter = this.options.cutAfter;
    if (cutAfter !== undefined && !this.cut.has(url)) {
      this.cut.add(url);
      // the first bytes, then (once the client has surely written them) the connection breaks
      res.write(part.subarray(0, cutAfter), () => setTimeout(() => res.destroy(), 300));
      return;
    }
    if (this.options.slow) {
      let at = 0;
      const step = Math.ceil(part.length / 20);
      const tick = () => {
        if (at >= part.length) return void res.end();
        res.write(part.subarray(at, at + step));
        at += step;
        setTimeout(tick, 15);
      };
      tick();
      return;
    }
    res.end(part);
  }
}

const SPEC: ModelSpec = {
  id: "test-model",
  engine: "sherpa",
  repo: "someone/test-model",
  files: [{ name: "model.int8.onnx" }, { name: "tokens.txt" }],
  dir: "test-model",
  summary: "a test model",
};

const quietLog = { info: () => {}, warn: () => {} };
let dir: string;
const model = randomBytes(300_000);
const tokens = Buffer.from("<blk> 0\n▁the 1\n");

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-models-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(path.join(dir, "m-"));
});

describe("downloadFile", () => {
  it("resumes after a cut from where it broke off (HTTP Range), then verifies and moves the file into place", async () => {
    const hub = await new FakeHub({ cutAfter: 100_000 }).start();
    try {
      hub.files.set("/f.bin", model);
      const dest = path.join(folder, "f.bin");
      const first = await downloadFile({ url: `${hub.url}/f.bin`, dest, expected: { sha256: sha256(model) } }).catch(
        (e: unknown) => e,
      );
      expect(first).toBeInstanceOf(DownloadError);
      expect((first as DownloadError).kind).toBe("interrupted");
      expect(existsSync(dest)).toBe(false); // never a half file under the real name
      const kept = (await stat(`${dest}.part`)).size;
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThanOrEqual(100_000);

      await downloadFile({ url: `${hub.url}/f.bin`, dest, expected: { sha256: sha256(model) } });
      expect(hub.requests.at(-1)?.range).toBe(`bytes=${kept}-`);
      expect((await readFile(dest)).equals(model)).toBe(true);
      expect(existsSync(`${dest}.part`)).toBe(false);
    } finally {
      await hub.stop();
    }
  });

  it("refuses a file whose checksum does not match, and keeps nothing", async () => {
    const hub = await new FakeHub().start();
    try {
      hub.files.set("/f.bin", model);
      const dest = path.join(folder, "f.bin");
      const error = await downloadFile({ url: `${hub.url}/f.bin`, dest, expected: { sha256: "0".repeat(64) } }).catch(
        (e: unknown) => e,
      );
      expect((error as DownloadError).kind).toBe("checksum");
      expect(existsSync(dest)).toBe(false);
      expect(existsSync(`${dest}.part`)).toBe(false);
    } finally {
      await hub.stop();
    }
  });

  it("checks against what the hub publishes (LFS SHA-256, git blob id), and refuses a server that publishes nothing", async () => {
    const hub = await new FakeHub().start();
    try {
      hub.files.set("/big", model);
      hub.files.set("/small", tokens);
      await downloadFile({ url: `${hub.url}/big`, dest: path.join(folder, "big") });
      await downloadFile({ url: `${hub.url}/small`, dest: path.join(folder, "small") });
      expect((await readFile(path.join(folder, "small"))).equals(tokens)).toBe(true);

      const plain = createServer((_req, res) => res.end("x".repeat(2000)));
      await new Promise<void>((r) => plain.listen(0, "127.0.0.1", r));
      const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/file`;
      const error = await downloadFile({ url, dest: path.join(folder, "plain") }).catch((e: unknown) => e);
      plain.close();
      expect((error as DownloadError).kind).toBe("no-checksum");
      expect(existsSync(path.join(folder, "plain"))).toBe(false);
    } finally {
      await hub.stop();
    }
  });
});

describe("ModelProvisioner", () => {
  it("fetches every file of a model from the configured mirror (HF_ENDPOINT), reporting progress, then ready", async () => {
    const hub = await new FakeHub({ slow: true }).start();
    try {
      hub.files.set("/someone/test-model/resolve/main/model.int8.onnx", model);
      hub.files.set("/someone/test-model/resolve/main/tokens.txt", tokens);
      const states: ModelState[] = [];
      const want = { spec: SPEC, dir: path.join(folder, "test-model") };
      const provisioner: ModelProvisioner = new ModelProvisioner({
        endpoint: hub.url,
        autoFetch: true,
        log: quietLog,
        onChange: () => states.push(provisioner.stateOf(want)),
      });
      expect(provisioner.stateOf(want)).toEqual({ state: "missing" });
      provisioner.ensure(want);
      await provisioner.settled();
      expect(provisioner.stateOf(want)).toEqual({ state: "ready" });
      const progress = states.flatMap((s) => (s.state === "downloading" ? [s.progress] : []));
      expect(progress.length).toBeGreaterThan(3);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(progress.some((p) => p > 0 && p < 100)).toBe(true);
      expect(states.at(-1)).toEqual({ state: "ready" });
      expect((await readFile(path.join(want.dir, "model.int8.onnx"))).equals(model)).toBe(true);
      expect(hub.requests.every((r) => r.url.startsWith("/someone/test-model/resolve/main/"))).toBe(true);
    } finally {
      await hub.stop();
    }
  });

  it("a plain web folder (ASR_MODEL_URL) works with the operator's checksums (ASR_MODEL_SHA256)", async () => {
    const plain = createServer((req, res) => {
      if (req.url === "/models/model.int8.onnx") return void res.end(model);
      if (req.url === "/models/tokens.txt") return void res.end(tokens);
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => plain.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/models/`;
    try {
      const want = { spec: SPEC, dir: path.join(folder, "plain") };
      const withSums = new ModelProvisioner({
        endpoint: "http://127.0.0.1:1",
        folderUrl: base,
        sha256: `model.int8.onnx=${sha256(model)}, tokens.txt=${sha256(tokens)}`,
        autoFetch: true,
        log: quietLog,
      });
      await withSums.fetch(want);
      expect(withSums.stateOf(want)).toEqual({ state: "ready" });

      const other = { spec: SPEC, dir: path.join(folder, "unsigned") };
      const withoutSums = new ModelProvisioner({
        endpoint: "http://127.0.0.1:1",
        folderUrl: base,
        autoFetch: true,
        log: quietLog,
      });
      await expect(withoutSums.fetch(other)).rejects.toThrow(/publishes no checksum/);
      expect(withoutSums.stateOf(other)).toMatchObject({
        state: "failed",
        detail: expect.stringMatching(/^no-checksum/),
      });
    } finally {
      plain.close();
    }
  });

  it("without a network the state is 'failed' with the reason, retried later; with auto-fetch off nothing is tried", async () => {
    const want = { spec: SPEC, dir: path.join(folder, "offline") };
    const warnings: string[] = [];
    const provisioner = new ModelProvisioner({
      endpoint: "http://127.0.0.1:1", // nothing listens on port 1: connection refused
      autoFetch: true,
      log: { info: () => {}, warn: (obj) => warnings.push(JSON.stringify(obj)) },
    });
    provisioner.ensure(want);
    await provisioner.settled();
    expect(provisioner.stateOf(want)).toMatchObject({
      state: "failed",
      detail: expect.stringMatching(/^unreachable: could not reach 127\.0\.0\.1:1/),
    });
    expect(warnings.join()).toMatch(/retryInSeconds/);
    provisioner.stop();

    const off = new ModelProvisioner({ endpoint: "http://127.0.0.1:1", autoFetch: false, log: quietLog });
    off.ensure(want);
    await off.settled();
    expect(off.stateOf({ ...want, dir: path.join(folder, "never") })).toEqual({ state: "missing" });
  });
});

describe("what the worker reports while the Chinese model downloads", () => {
  it("zh and auto say model-downloading with the percentage, then model-failed when the download fails", async () => {
    const config = loadConfig({
      ...process.env,
      DATA_DIR: folder,
      ASR_ENGINE_ZH: "sherpa",
      ASR_ENGINE_EN: "moonshine",
      SHERPA_MODEL: "sense-voice",
    });
    const hub = await new FakeHub({ slow: true }).start();
    const repo = "/csukuangfj/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17/resolve/main";
    hub.files.set(`${repo}/model.int8.onnx`, model);
    hub.files.set(`${repo}/tokens.txt`, tokens);
    const seen: string[] = [];
    const provisioner: ModelProvisioner = new ModelProvisioner({
      endpoint: hub.url,
      autoFetch: true,
      log: quietLog,
      onChange: () => {
        const zh = engineReports(config, provisioner)[0]!;
        seen.push(zh.available ? "ready" : `${zh.problem}:${zh.progress ?? ""}`);
      },
    });
    try {
      expect(engineMissing("sherpa", "zh", config, provisioner)).toMatchObject({ problem: "model-missing" });
      const want = { spec: SHERPA_MODELS.find((m) => m.id === "sense-voice")!, dir: config.SHERPA_MODEL_DIR };
      provisioner.ensure(want);
      await provisioner.settled();
      expect(seen.some((s) => /^model-downloading:[1-9]\d?$/.test(s))).toBe(true);
      // the fake files are not a real model, but the files are there: sherpa's check passes and the
      // report says ready (the engine itself would fail to load them — not this test's business)
      expect(seen.at(-1)).toBe("ready");
      const reports = engineReports(config, provisioner);
      expect(reports.find((r) => r.language === "auto")).toMatchObject({ engine: "sherpa", available: true });
    } finally {
      await hub.stop();
    }

    const offline = loadConfig({ ...process.env, DATA_DIR: path.join(folder, "x"), ASR_ENGINE_ZH: "sherpa" });
    const failing = new ModelProvisioner({ endpoint: "http://127.0.0.1:1", autoFetch: true, log: quietLog });
    failing.ensure({ spec: SHERPA_MODELS.find((m) => m.id === "sense-voice")!, dir: offline.SHERPA_MODEL_DIR });
    await failing.settled();
    failing.stop();
    const [zh, , auto] = engineReports(offline, failing);
    expect(zh).toEqual({ language: "zh", engine: "sherpa", available: false, problem: "model-failed" });
    expect(auto).toEqual({ language: "auto", engine: "sherpa", available: false, problem: "model-failed" });
  });
});

describe("models:fetch data", () => {
  it("files written by hand count as ready", async () => {
    const want = { spec: SPEC, dir: path.join(folder, "by-hand") };
    await rm(want.dir, { recursive: true, force: true });
    await import("node:fs/promises").then((fs) => fs.mkdir(want.dir, { recursive: true }));
    await writeFile(path.join(want.dir, "model.int8.onnx"), model);
    await writeFile(path.join(want.dir, "tokens.txt"), tokens);
    expect(ModelProvisioner.isReady(want)).toBe(true);
  });
});
