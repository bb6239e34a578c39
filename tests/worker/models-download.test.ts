import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LlmStatus } from "@yuelu/contracts";
import { engineOverview } from "@yuelu/domain";
import { type EngineReport, type LiveWorker, loadConfig } from "@yuelu/runtime";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { languagesOf } from "../../apps/api/src/modules/dictation/engines.ts";
import { engineMissing, engineReports } from "../../apps/worker/src/engines/asr/factory.ts";
import { type ModelSpec, SHERPA_MODELS, WHISPER_MODELS } from "../../apps/worker/src/models/catalog.ts";
import { DownloadError, downloadFile } from "../../apps/worker/src/models/download.ts";
import {
  ModelFetchError,
  ModelProvisioner,
  type ModelState,
  type SourceFailure,
} from "../../apps/worker/src/models/provisioner.ts";
import { withModelSources } from "../../apps/worker/src/models/report.ts";
import {
  defaultSourceOrder,
  hubSource,
  type ModelSource,
  modelScopeSource,
  modelSources,
} from "../../apps/worker/src/models/sources.ts";

/**
 * The model downloader and provisioner against local HTTP servers playing the model sources (test
 * doubles: FakeHub in a Hugging Face hub's layout or ModelScope's; a refused port; a host that does
 * not resolve). Nothing here reaches the internet.
 */

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const gitSha1 = (b: Buffer) =>
  createHash("sha1")
    .update(Buffer.concat([Buffer.from(`blob ${b.length}\0`), b]))
    .digest("hex");

interface FakeHubOptions {
  /** cut the connection after this many bytes on the first request of each path */
  cutAfter?: number;
  /** send this many bytes on the first request of each path, then nothing (the connection stays open) */
  stallAfter?: number;
  /** answer every request with the whole file (200), as a server without Range support does */
  ignoreRange?: boolean;
  /** send each file in 20 pieces with a pause, so progress can be seen */
  slow?: boolean;
}

/** Test double: a model source serving the files it is given by path, with Range and a hub's ETags. */
class FakeHub {
  readonly files = new Map<string, Buffer>();
  readonly requests: { method: string; url: string; range?: string }[] = [];
  private readonly firstServed = new Set<string>();
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

  /** The requests for one file (GETs and HEADs), in order. */
  requestsFor(name: string) {
    return this.requests.filter((r) => r.url.endsWith(`/${name}`));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? "";
    this.requests.push({ method: req.method ?? "", url, range: req.headers.range });
    const body = this.files.get(url);
    if (!body) return void res.writeHead(404).end();
    // big files carry their LFS SHA-256, small ones their git blob id (as huggingface.co does)
    const etag = body.length > 1000 ? { "x-linked-etag": `"${sha256(body)}"` } : { etag: `"${gitSha1(body)}"` };
    if (req.method === "HEAD") return void res.writeHead(200, { ...etag, "content-length": body.length }).end();
    const asked = /bytes=(\d+)-/.exec(req.headers.range ?? "");
    const from = this.options.ignoreRange || !asked ? 0 : Number(asked[1]);
    if (from >= body.length && from > 0) return void res.writeHead(416).end();
    const part = body.subarray(from);
    const range = from > 0 ? { "content-range": `bytes ${from}-${body.length - 1}/${body.length}` } : {};
    res.writeHead(from > 0 ? 206 : 200, { ...etag, ...range, "content-length": part.length });
    const first = !this.firstServed.has(url);
    this.firstServed.add(url);
    if (first && this.options.cutAfter !== undefined) {
      // the first bytes, then (once the client has surely written them) the connection breaks
      return void res.write(part.subarray(0, this.options.cutAfter), () => setTimeout(() => res.destroy(), 300));
    }
    if (first && this.options.stallAfter !== undefined)
      return void res.write(part.subarray(0, this.options.stallAfter));
    if (this.options.slow) this.trickle(res, part);
    else res.end(part);
  }

  private trickle(res: ServerResponse, part: Buffer): void {
    let at = 0;
    const step = Math.ceil(part.length / 20);
    const tick = () => {
      if (at >= part.length) return void res.end();
      res.write(part.subarray(at, at + step));
      at += step;
      setTimeout(tick, 15);
    };
    tick();
  }
}

/** A URL where nothing listens: the connection is refused. */
async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

const quietLog = { info: () => {}, warn: () => {} };
/** A log the tests read: each entry's fields and message. */
function recordingLog() {
  const entries: { level: "info" | "warn"; obj: Record<string, unknown>; msg?: string }[] = [];
  return {
    entries,
    info: (obj: unknown, msg?: string) => entries.push({ level: "info", obj: obj as Record<string, unknown>, msg }),
    warn: (obj: unknown, msg?: string) => entries.push({ level: "warn", obj: obj as Record<string, unknown>, msg }),
  };
}

let dir: string;
const model = randomBytes(300_000);
const tokens = Buffer.from("<blk> 0\n▁the 1\n");
/** what a wrong mirror serves under the same names */
const otherModel = randomBytes(300_000);

/** The test's own model, its files pinned to the bytes the test serves (as the catalog pins the real ones). */
const SPEC: ModelSpec = {
  id: "test-model",
  engine: "sherpa",
  repo: "someone/test-model",
  modelscope: "someone-else/test-model-copy",
  files: [
    { name: "model.int8.onnx", sha256: sha256(model) },
    { name: "tokens.txt", sha256: sha256(tokens) },
  ],
  dir: "test-model",
  summary: "a test model",
};
/** The same model with nothing pinned: only a hub's published checksums (or the operator's) vouch for it. */
const UNPINNED: ModelSpec = { ...SPEC, files: SPEC.files.map(({ name }) => ({ name })) };

/** A catalog model with its checksums replaced by those of the test's files (the product never does this). */
function pinnedToTestFiles(spec: ModelSpec): ModelSpec {
  const bytes: Record<string, Buffer> = { "model.int8.onnx": model, "tokens.txt": tokens };
  return { ...spec, files: spec.files.map((f) => ({ name: f.name, sha256: sha256(bytes[f.name]!) })) };
}

/** Serves the model under a hub's layout (<repo>/resolve/main/…) or ModelScope's (models/<repo>/resolve/master/…). */
function serveModel(hub: FakeHub, layout: "hub" | "modelscope", spec: ModelSpec, files = { model, tokens }) {
  const base = layout === "hub" ? `/${spec.repo}/resolve/main` : `/models/${spec.modelscope}/resolve/master`;
  hub.files.set(`${base}/model.int8.onnx`, files.model);
  hub.files.set(`${base}/tokens.txt`, files.tokens);
}

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
  it("continues a cut download at once with a Range request, and verifies the whole file", async () => {
    const hub = await new FakeHub({ cutAfter: 100_000 }).start();
    try {
      hub.files.set("/f.bin", model);
      const dest = path.join(folder, "f.bin");
      await downloadFile({ url: `${hub.url}/f.bin`, dest, expected: { sha256: sha256(model) } });
      const gets = hub.requests.filter((r) => r.method === "GET");
      expect(gets).toHaveLength(2);
      expect(gets[0]!.range).toBeUndefined();
      const resumedAt = Number(/bytes=(\d+)-$/.exec(gets[1]!.range ?? "")?.[1]);
      expect(resumedAt).toBeGreaterThan(0);
      expect(resumedAt).toBeLessThanOrEqual(100_000);
      expect((await readFile(dest)).equals(model)).toBe(true);
      expect(existsSync(`${dest}.part`)).toBe(false);
    } finally {
      await hub.stop();
    }
  });

  it("keeps what arrived when it gives up, and the next try resumes from there; never a half file under the name", async () => {
    const hub = await new FakeHub({ cutAfter: 100_000 }).start();
    try {
      hub.files.set("/f.bin", model);
      const dest = path.join(folder, "f.bin");
      const expected = { sha256: sha256(model) };
      const first = await downloadFile({ url: `${hub.url}/f.bin`, dest, expected, resumes: 0 }).catch((e) => e);
      expect(first).toBeInstanceOf(DownloadError);
      expect((first as DownloadError).kind).toBe("interrupted");
      expect(existsSync(dest)).toBe(false);
      const kept = (await stat(`${dest}.part`)).size;
      expect(kept).toBeGreaterThan(0);

      await downloadFile({ url: `${hub.url}/f.bin`, dest, expected });
      expect(hub.requests.at(-1)?.range).toBe(`bytes=${kept}-`);
      expect((await readFile(dest)).equals(model)).toBe(true);
    } finally {
      await hub.stop();
    }
  });

  it("starts over cleanly with a server that ignores Range (200 with the whole file)", async () => {
    const hub = await new FakeHub({ cutAfter: 100_000, ignoreRange: true }).start();
    try {
      hub.files.set("/f.bin", model);
      const dest = path.join(folder, "f.bin");
      await downloadFile({ url: `${hub.url}/f.bin`, dest, expected: { sha256: sha256(model) } });
      expect(hub.requests.filter((r) => r.method === "GET").at(-1)?.range).toMatch(/^bytes=\d+-$/);
      // the whole file once, not the kept bytes followed by the whole file
      expect((await readFile(dest)).equals(model)).toBe(true);
    } finally {
      await hub.stop();
    }
  });

  it("takes a body that stalls for a broken connection, and resumes it", async () => {
    const hub = await new FakeHub({ stallAfter: 50_000 }).start();
    try {
      hub.files.set("/f.bin", model);
      const dest = path.join(folder, "f.bin");
      await downloadFile({ url: `${hub.url}/f.bin`, dest, expected: { sha256: sha256(model) }, idleTimeoutMs: 300 });
      expect(hub.requests.at(-1)?.range).toBe("bytes=50000-");
      expect((await readFile(dest)).equals(model)).toBe(true);
    } finally {
      await hub.stop();
    }
  });

  it("fetches the file again from its start when bytes kept from an earlier try turn out wrong", async () => {
    const hub = await new FakeHub().start();
    try {
      hub.files.set("/f.bin", model);
      const dest = path.join(folder, "f.bin");
      // what another source left behind: bytes that are not this file's
      await writeFile(`${dest}.part`, otherModel.subarray(0, 1000));
      await downloadFile({ url: `${hub.url}/f.bin`, dest, expected: { sha256: sha256(model) } });
      expect(hub.requests.map((r) => r.range)).toEqual(["bytes=1000-", undefined]);
      expect((await readFile(dest)).equals(model)).toBe(true);
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

describe("model sources", () => {
  const names = (sources: ModelSource[]) => sources.map((s) => s.name);

  it("default order: the hub first, except where the machine's time zone is mainland China's", () => {
    expect(defaultSourceOrder("Europe/Berlin")).toEqual(["huggingface", "hf-mirror", "modelscope"]);
    expect(defaultSourceOrder("UTC")).toEqual(["huggingface", "hf-mirror", "modelscope"]);
    expect(defaultSourceOrder("Asia/Hong_Kong")).toEqual(["huggingface", "hf-mirror", "modelscope"]);
    expect(defaultSourceOrder("Asia/Shanghai")).toEqual(["modelscope", "hf-mirror", "huggingface"]);
    expect(names(modelSources(loadConfig({}), "Asia/Urumqi"))).toEqual(["modelscope", "hf-mirror", "huggingface"]);
  });

  it("HF_ENDPOINT goes first; ASR_MODEL_SOURCES is the exact list; ASR_MODEL_URL is used alone", () => {
    const sources = (env: Record<string, string>, zone = "UTC") => names(modelSources(loadConfig(env), zone));
    expect(sources({ HF_ENDPOINT: "https://mirror.corp/hf/" })).toEqual([
      "mirror.corp/hf",
      "huggingface",
      "hf-mirror",
      "modelscope",
    ]);
    // a known site's URL is that source, tried once
    expect(sources({ HF_ENDPOINT: "https://hf-mirror.com" }, "Asia/Shanghai")).toEqual([
      "hf-mirror",
      "modelscope",
      "huggingface",
    ]);
    expect(sources({ ASR_MODEL_SOURCES: "modelscope, https://mirror.corp:8443" })).toEqual([
      "modelscope",
      "mirror.corp:8443",
    ]);
    expect(sources({ ASR_MODEL_SOURCES: "modelscope", HF_ENDPOINT: "https://huggingface.co" })).toEqual([
      "huggingface",
      "modelscope",
    ]);
    expect(sources({ ASR_MODEL_URL: "https://files.corp/models/", ASR_MODEL_SOURCES: "modelscope" })).toEqual([
      "files.corp/models",
    ]);
    expect(() => loadConfig({ ASR_MODEL_SOURCES: "modelscope,baidu" })).toThrow(/neither a source name/);
  });

  it("knows where each source keeps a model's files", () => {
    const senseVoice = SHERPA_MODELS.find((m) => m.id === "sense-voice")!;
    const [model, tokensFile] = senseVoice.files;
    const [huggingface, hfMirror, modelscope] = modelSources(loadConfig({}), "UTC");
    expect(huggingface!.urlOf(senseVoice, tokensFile!)).toBe(
      "https://huggingface.co/csukuangfj/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17/resolve/main/tokens.txt",
    );
    expect(hfMirror!.urlOf(senseVoice, model!)).toBe(
      "https://hf-mirror.com/csukuangfj/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17/resolve/main/model.int8.onnx",
    );
    expect(modelscope!.urlOf(senseVoice, model!)).toBe(
      "https://www.modelscope.cn/models/pengzhendong/sherpa-onnx-sense-voice-zh-en-ja-ko-yue/resolve/master/model.int8.onnx",
    );
    expect(modelscope!.urlOf({ ...senseVoice, modelscope: undefined }, model!)).toBeUndefined();
  });

  it("the catalog pins a SHA-256 for every sherpa file and whisper.cpp's SHA-1s for its models", () => {
    for (const spec of SHERPA_MODELS) {
      for (const file of spec.files) expect(file.sha256, `${spec.id} ${file.name}`).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(WHISPER_MODELS.find((m) => m.id === "base")!.files[0]!.sha1).toBe(
      "465707469ff3a37a2b9b8d8f89f2f99de7299dac",
    );
  });
});

describe("ModelProvisioner", () => {
  it("tries its sources in turn: refused, unresolvable and wrong-checksum ones are skipped and logged, the right one used and reported", async () => {
    const wrong = await new FakeHub().start();
    const right = await new FakeHub().start();
    try {
      serveModel(wrong, "hub", SPEC, { model: otherModel, tokens });
      serveModel(right, "modelscope", SPEC);
      const log = recordingLog();
      const sources = [
        hubSource(await refusedUrl(), "refused"),
        hubSource("http://models.invalid", "unresolvable"),
        hubSource(wrong.url, "wrong-mirror"),
        modelScopeSource(right.url),
      ];
      const provisioner = new ModelProvisioner({ sources, autoFetch: true, log });
      const want = { spec: SPEC, dir: path.join(folder, "test-model") };
      await provisioner.fetch(want);

      expect((await readFile(path.join(want.dir, "model.int8.onnx"))).equals(model)).toBe(true);
      expect((await readFile(path.join(want.dir, "tokens.txt"))).equals(tokens)).toBe(true);
      const state = provisioner.stateOf(want);
      expect(state).toMatchObject({ state: "ready", source: "modelscope" });
      const failures = (state as { failures: SourceFailure[] }).failures;
      expect(failures.map((f) => [f.source, f.reason])).toEqual([
        ["refused", "unreachable"],
        ["unresolvable", "unreachable"],
        ["wrong-mirror", "checksum"],
      ]);
      expect(failures[0]!.detail).toMatch(/ECONNREFUSED/);
      expect(failures[1]!.detail).toMatch(/ENOTFOUND|EAI_AGAIN/);
      // the source that served the first file serves the next one first: tokens.txt came from modelscope at once
      expect(failures.every((f) => f.file === "model.int8.onnx")).toBe(true);
      expect(wrong.requestsFor("tokens.txt")).toEqual([]);
      expect(
        right.requests.every((r) => r.url.startsWith("/models/someone-else/test-model-copy/resolve/master/")),
      ).toBe(true);

      // the log says which source was skipped and why, and which one served
      const skipped = log.entries.filter((e) => e.msg === "speech model source skipped").map((e) => e.obj.source);
      expect(skipped).toEqual(["refused", "unresolvable", "wrong-mirror"]);
      expect(log.entries.find((e) => e.msg?.startsWith("speech model ready"))).toMatchObject({
        obj: { model: "test-model", source: "modelscope" },
        msg: "speech model ready (from modelscope)",
      });
      expect(log.entries[0]).toMatchObject({
        obj: { sources: ["refused", "unresolvable", "wrong-mirror", "modelscope"] },
      });
    } finally {
      await wrong.stop();
      await right.stop();
    }
  });

  it("HF_ENDPOINT still works: the configured mirror serves first, progress is reported, then ready", async () => {
    const hub = await new FakeHub({ slow: true }).start();
    try {
      serveModel(hub, "hub", SPEC);
      const states: ModelState[] = [];
      const want = { spec: SPEC, dir: path.join(folder, "test-model") };
      const config = loadConfig({ HF_ENDPOINT: hub.url, ASR_MODEL_SOURCES: await refusedUrl() });
      const provisioner: ModelProvisioner = new ModelProvisioner({
        sources: modelSources(config),
        autoFetch: true,
        log: quietLog,
        onChange: () => states.push(provisioner.stateOf(want)),
      });
      expect(provisioner.stateOf(want)).toEqual({ state: "missing" });
      provisioner.ensure(want);
      await provisioner.settled();
      expect(provisioner.stateOf(want)).toEqual({ state: "ready", source: new URL(hub.url).host, failures: [] });
      const progress = states.flatMap((s) => (s.state === "downloading" ? [s.progress] : []));
      expect(progress.length).toBeGreaterThan(3);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(progress.some((p) => p > 0 && p < 100)).toBe(true);
      expect(states.find((s) => s.state === "downloading")).toMatchObject({ source: new URL(hub.url).host });
      expect(states.at(-1)).toMatchObject({ state: "ready" });
      expect(hub.requests.every((r) => r.url.startsWith("/someone/test-model/resolve/main/"))).toBe(true);
    } finally {
      await hub.stop();
    }
  });

  it("a download cut mid-file resumes with a Range request and finishes with the right checksum", async () => {
    const hub = await new FakeHub({ cutAfter: 120_000 }).start();
    try {
      serveModel(hub, "hub", SPEC);
      const provisioner = new ModelProvisioner({ sources: [hubSource(hub.url)], autoFetch: true, log: quietLog });
      const want = { spec: SPEC, dir: path.join(folder, "test-model") };
      await provisioner.fetch(want);
      const gets = hub.requestsFor("model.int8.onnx").filter((r) => r.method === "GET");
      expect(gets.map((r) => r.range)).toEqual([undefined, expect.stringMatching(/^bytes=[1-9]\d*-$/)]);
      expect(sha256(await readFile(path.join(want.dir, "model.int8.onnx")))).toBe(SPEC.files[0]!.sha256);
      expect(provisioner.stateOf(want)).toMatchObject({ state: "ready", failures: [] });
    } finally {
      await hub.stop();
    }
  });

  it("a plain web folder (ASR_MODEL_URL) is the only source, with the operator's checksums for unpinned files", async () => {
    const plain = createServer((req, res) => {
      if (req.url === "/models/model.int8.onnx") return void res.end(model);
      if (req.url === "/models/tokens.txt") return void res.end(tokens);
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => plain.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/models/`;
    try {
      const config = loadConfig({ ASR_MODEL_URL: base, HF_ENDPOINT: "https://huggingface.co" });
      expect(modelSources(config)).toHaveLength(1);
      const want = { spec: UNPINNED, dir: path.join(folder, "plain") };
      const withSums = new ModelProvisioner({
        sources: modelSources(config),
        sha256: `model.int8.onnx=${sha256(model)}, tokens.txt=${sha256(tokens)}`,
        autoFetch: true,
        log: quietLog,
      });
      await withSums.fetch(want);
      expect(withSums.stateOf(want)).toMatchObject({ state: "ready" });

      const other = { spec: UNPINNED, dir: path.join(folder, "unsigned") };
      const withoutSums = new ModelProvisioner({ sources: modelSources(config), autoFetch: true, log: quietLog });
      await expect(withoutSums.fetch(other)).rejects.toThrow(/publishes no checksum/);
      const failed = withoutSums.stateOf(other);
      expect(failed).toMatchObject({ state: "failed", failures: [{ reason: "no-checksum", file: "model.int8.onnx" }] });
    } finally {
      plain.close();
    }
  });

  it("a pinned checksum is the last word: the operator's ASR_MODEL_SHA256 cannot make other bytes pass", async () => {
    const hub = await new FakeHub().start();
    try {
      serveModel(hub, "hub", SPEC, { model: otherModel, tokens });
      const provisioner = new ModelProvisioner({
        sources: [hubSource(hub.url)],
        sha256: `model.int8.onnx=${sha256(otherModel)}`,
        autoFetch: true,
        log: quietLog,
      });
      const want = { spec: SPEC, dir: path.join(folder, "pinned") };
      const error = await provisioner.fetch(want).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelFetchError);
      expect((error as ModelFetchError).failures).toMatchObject([{ reason: "checksum", file: "model.int8.onnx" }]);
      expect(existsSync(path.join(want.dir, "model.int8.onnx"))).toBe(false);
    } finally {
      await hub.stop();
    }
  });

  it("takes a hub's published checksums for unpinned files, never a third-party copy's (ModelScope)", async () => {
    const modelscope = await new FakeHub().start();
    try {
      serveModel(modelscope, "modelscope", UNPINNED);
      const provisioner = new ModelProvisioner({
        sources: [modelScopeSource(modelscope.url)],
        autoFetch: true,
        log: quietLog,
      });
      const want = { spec: UNPINNED, dir: path.join(folder, "unpinned") };
      const error = (await provisioner.fetch(want).catch((e: unknown) => e)) as ModelFetchError;
      expect(error.failures).toMatchObject([{ source: "modelscope", reason: "no-checksum" }]);
      expect(modelscope.requests).toEqual([]);
    } finally {
      await modelscope.stop();
    }
  });

  it("when every source fails: 'failed' with each source's reason, retried later; with auto-fetch off nothing is tried", async () => {
    const wrong = await new FakeHub().start();
    try {
      serveModel(wrong, "hub", SPEC, { model: otherModel, tokens });
      const want = { spec: SPEC, dir: path.join(folder, "offline") };
      const warnings: string[] = [];
      const provisioner = new ModelProvisioner({
        sources: [hubSource(await refusedUrl(), "refused"), hubSource(wrong.url, "wrong-mirror")],
        autoFetch: true,
        log: { info: () => {}, warn: (obj) => warnings.push(JSON.stringify(obj)) },
      });
      provisioner.ensure(want);
      await provisioner.settled();
      const state = provisioner.stateOf(want);
      expect(state).toMatchObject({
        state: "failed",
        failures: [
          { source: "refused", reason: "unreachable" },
          { source: "wrong-mirror", reason: "checksum" },
        ],
      });
      expect((state as { detail: string }).detail).toMatch(
        /^refused \(model\.int8\.onnx\): unreachable: .*; wrong-mirror/,
      );
      expect(warnings.join()).toMatch(/retryInSeconds/);
      provisioner.stop();

      const off = new ModelProvisioner({ sources: [hubSource(wrong.url)], autoFetch: false, log: quietLog });
      off.ensure({ ...want, dir: path.join(folder, "never") });
      await off.settled();
      expect(off.stateOf({ ...want, dir: path.join(folder, "never") })).toEqual({ state: "missing" });
      expect(wrong.requestsFor("tokens.txt")).toEqual([]);
    } finally {
      await wrong.stop();
    }
  });
});

describe("what the worker reports while the Chinese model downloads", () => {
  const senseVoice = () => pinnedToTestFiles(SHERPA_MODELS.find((m) => m.id === "sense-voice")!);
  const worker = (engines: EngineReport[]): LiveWorker => ({
    workerId: "w1",
    hostname: "gpu-1",
    pid: 1,
    engines,
    ttsEngines: [],
    liveEngines: [],
    tools: [],
    startedAt: new Date(),
    seenAt: new Date(),
  });
  const noLlm: LlmStatus = {
    configured: false,
    model: null,
    host: null,
    answering: null,
    problem: null,
    checkedAt: null,
  };

  it("zh and auto say model-downloading with the percentage, then ready with the source the model came from", async () => {
    const config = loadConfig({
      ...process.env,
      DATA_DIR: folder,
      ASR_ENGINE_ZH: "sherpa",
      ASR_ENGINE_EN: "moonshine",
      SHERPA_MODEL: "sense-voice",
    });
    const mirror = await new FakeHub({ slow: true }).start();
    serveModel(mirror, "hub", senseVoice());
    const seen: string[] = [];
    const provisioner: ModelProvisioner = new ModelProvisioner({
      sources: [hubSource(mirror.url, "hf-mirror")],
      autoFetch: true,
      log: quietLog,
      onChange: () => {
        const zh = withModelSources(engineReports(config, provisioner), config, provisioner)[0]!;
        seen.push(zh.available ? `ready:${zh.modelSource}` : `${zh.problem}:${zh.progress ?? ""}:${zh.modelSource}`);
      },
    });
    try {
      expect(engineMissing("sherpa", "zh", config, provisioner)).toMatchObject({ problem: "model-missing" });
      provisioner.ensure({ spec: senseVoice(), dir: config.SHERPA_MODEL_DIR });
      await provisioner.settled();
      expect(seen.some((s) => /^model-downloading:[1-9]\d?:hf-mirror$/.test(s))).toBe(true);
      // the fake files are not a real model, but the files are there: sherpa's check passes and the
      // report says ready (the engine itself would fail to load them — not this test's business)
      expect(seen.at(-1)).toBe("ready:hf-mirror");
      const reports = withModelSources(engineReports(config, provisioner), config, provisioner);
      expect(reports.find((r) => r.language === "auto")).toMatchObject({
        engine: "sherpa",
        available: true,
        modelSource: "hf-mirror",
      });
      // moonshine ships in npm: no source to report
      expect(reports.find((r) => r.language === "en")).not.toHaveProperty("modelSource");
    } finally {
      await mirror.stop();
    }
  });

  it("a failed download: operators read each source's failure (/readyz, the console); users read plain words only", async () => {
    const offline = loadConfig({ ...process.env, DATA_DIR: path.join(folder, "x"), ASR_ENGINE_ZH: "sherpa" });
    const refused = await refusedUrl();
    const failing = new ModelProvisioner({
      sources: [hubSource(refused, "huggingface"), hubSource("http://hf-mirror.invalid", "hf-mirror")],
      autoFetch: true,
      log: quietLog,
    });
    failing.ensure({ spec: senseVoice(), dir: offline.SHERPA_MODEL_DIR });
    await failing.settled();
    failing.stop();
    const reports = withModelSources(engineReports(offline, failing), offline, failing);
    const [zh, , auto] = reports;
    expect(zh).toMatchObject({ language: "zh", engine: "sherpa", available: false, problem: "model-failed" });
    expect(zh!.sourceFailures).toMatchObject([
      { source: "huggingface", file: "model.int8.onnx", reason: "unreachable" },
      { source: "hf-mirror", file: "model.int8.onnx", reason: "unreachable" },
    ]);
    expect(auto).toMatchObject({ language: "auto", problem: "model-failed" });

    // the console: each failed source with its reason and detail, and what to do (the sources list)
    const console = engineOverview([worker(reports)], [], noLlm);
    const zhView = console.workers[0]!.engines.find((e) => e.kind === "asr" && e.language === "zh")!;
    expect(zhView.sourceFailures.map((f) => f.source)).toEqual(["huggingface", "hf-mirror"]);
    expect(zhView.sourceFailures[0]!.detail).toContain(new URL(refused).host);
    expect(zhView.fix).toContain("ASR_MODEL_SOURCES");

    // what users read next to the language choice: no source, host, variable or path
    for (const lang of ["zh", "en"] as const) {
      const shown = JSON.stringify(languagesOf([worker(reports)], lang));
      expect(shown).not.toMatch(/huggingface|hf-mirror|modelscope|127\.0\.0\.1|invalid|http|HF_ENDPOINT|ASR_|\//);
      expect(languagesOf([worker(reports)], lang).find((l) => l.value === "zh")).toMatchObject({ state: "failed" });
    }
  });
});

describe("models:fetch data", () => {
  it("files written by hand count as ready", async () => {
    const want = { spec: SPEC, dir: path.join(folder, "by-hand") };
    await mkdir(want.dir, { recursive: true });
    await writeFile(path.join(want.dir, "model.int8.onnx"), model);
    await writeFile(path.join(want.dir, "tokens.txt"), tokens);
    expect(ModelProvisioner.isReady(want)).toBe(true);
    expect(new ModelProvisioner({ sources: [], autoFetch: true, log: quietLog }).stateOf(want)).toEqual({
      state: "ready",
    });
  });
});
