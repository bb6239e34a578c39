import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AdminFailedJob, AdminWorker } from "@yuelu/contracts";
import { StatusCode } from "@yuelu/contracts/constants";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { engagementBackend } from "@/testing/engagement-fixtures.ts";
import { envelopeError, type FakeCall, signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";
import { adminMe, failedJob, page, queues } from "../testing/fake-admin.ts";

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => vi.unstubAllGlobals());

/** A worker whose Chinese model came from ModelScope after two sources failed, and whose Paraformer still fails. */
function speechWorker(): AdminWorker {
  const engine = { kind: "asr" as const, engine: "sherpa", problem: null, progress: null, fix: null };
  return {
    workerId: "w1",
    hostname: "gpu-1",
    pid: 7,
    startedAt: "2026-11-26T05:00:00.000Z",
    seenAt: "2026-11-26T05:00:00.000Z",
    tools: [],
    engines: [
      {
        ...engine,
        language: "zh",
        available: true,
        modelSource: "modelscope",
        sourceFailures: [
          { source: "huggingface", file: "model.int8.onnx", reason: "unreachable", detail: "ENOTFOUND" },
          { source: "hf-mirror", file: "model.int8.onnx", reason: "checksum", detail: "sha256 0a… is not c7…" },
        ],
      },
      { ...engine, language: "en", engine: "moonshine", available: true, modelSource: null, sourceFailures: [] },
    ],
  };
}

/** The system page with two failed jobs; a retried or removed job leaves the list. */
function systemBackend(action?: (call: FakeCall) => unknown) {
  const state = { jobs: [failedJob({ id: "41" }), failedJob({ id: "42", queue: "tts", name: "synthesize" })] };
  const act = (call: FakeCall) => {
    const [, , , , , queue, id, done] = call.url.pathname.split("/");
    state.jobs = state.jobs.filter((j) => !(j.queue === queue && j.id === id));
    return { queue, id, done: done === "retry" ? "retried" : "removed" };
  };
  const api = engagementBackend({
    "GET /admin/me": () => adminMe(),
    "GET /admin/system/engines": () => ({
      workers: [speechWorker()],
      apiTools: [],
      missing: [],
      models: { list: "npm run models:fetch -- --list", fetch: "npm run models:fetch" },
      llm: {
        configured: true,
        model: "qwen2.5:7b-instruct",
        host: "ollama:11434",
        answering: false,
        problem: "connection refused",
        checkedAt: "2026-11-26T05:00:00.000Z",
      },
    }),
    "GET /admin/system/queues": () => queues(),
    "GET /admin/system/jobs/failed": () => page<AdminFailedJob>(state.jobs),
    "GET /admin/system/storage": () => ({ ...page([]), totalBytes: 0 }),
    "POST /admin/system/jobs/transcription/41/retry": action ?? act,
    "POST /admin/system/jobs/tts/42/remove": action ?? act,
  });
  return { api, state };
}

const rowName = (id: string) => new RegExp(`^(transcription|tts) ${id} `);
const jobRow = async (id: string) =>
  within(await screen.findByTestId("failed-jobs-table", {}, { timeout: 5000 })).getByRole("row", {
    name: rowName(id),
  });

describe("engines", () => {
  it("shows where a speech model came from, and why the sources before it failed", async () => {
    systemBackend();
    renderApp("/admin/system");
    const source = await screen.findByTestId("engine-model-source", {}, { timeout: 5000 });
    expect(source).toHaveTextContent("模型来源：modelscope");
    const failures = screen.getByTestId("engine-source-failures");
    expect(failures).toHaveTextContent("未成功的下载源");
    expect(failures).toHaveTextContent("huggingface model.int8.onnx: unreachable ENOTFOUND");
    expect(failures).toHaveTextContent("hf-mirror model.int8.onnx: checksum");
  });

  it("shows the configured language model, where it is and why it does not answer", async () => {
    systemBackend();
    renderApp("/admin/system");
    const llm = await screen.findByTestId("system-llm", {}, { timeout: 5000 });
    expect(llm).toHaveTextContent("qwen2.5:7b-instruct @ ollama:11434");
    expect(llm).toHaveTextContent("connection refused");
  });
});

describe("failed jobs", () => {
  it("retries one at once, and removes one after its confirmation; each leaves the list", async () => {
    const { api } = systemBackend();
    renderApp("/admin/system");
    const retried = await jobRow("41");
    expect(retried).toHaveTextContent("engine crashed");
    await userEvent.click(within(retried).getByRole("button", { name: "重试" }));
    expect(await screen.findByText("已重新排队")).toBeInTheDocument();
    expect(api.callsTo("/jobs/transcription/41/retry").map((c) => c.method)).toEqual(["POST"]);
    await waitFor(() =>
      expect(within(screen.getByTestId("failed-jobs-table")).queryByRole("row", { name: rowName("41") })).toBeNull(),
    );

    const removed = await jobRow("42");
    await userEvent.click(within(removed).getByRole("button", { name: "移除" }));
    const confirm = await screen.findByRole("dialog", { name: "移除任务 42？" });
    await userEvent.click(within(confirm).getByRole("button", { name: "取消" }));
    expect(api.callsTo("/remove")).toHaveLength(0);
    await userEvent.click(within(removed).getByRole("button", { name: "移除" }));
    await userEvent.click(within(await screen.findByRole("dialog", { name: "移除任务 42？" })).getByTestId("confirm"));
    expect(await screen.findByText("已移除")).toBeInTheDocument();
    expect(api.callsTo("/jobs/tts/42/remove")).toHaveLength(1);
    expect(await within(screen.getByTestId("system-failed-jobs")).findByText("暂无数据")).toBeInTheDocument();
  });

  it("shows the server's answer for a job that is gone (30001)", async () => {
    systemBackend(() => envelopeError(StatusCode.RecordNotFound, "记录不存在"));
    renderApp("/admin/system");
    await userEvent.click(within(await jobRow("41")).getByRole("button", { name: "重试" }));
    expect(await screen.findByText("记录不存在")).toBeInTheDocument();
    // the job stays listed, its retry usable again
    await waitFor(() =>
      expect(within(screen.getByTestId("failed-jobs-table")).getAllByRole("button", { name: "重试" })[0]).toBeEnabled(),
    );
    expect(await jobRow("41")).toBeInTheDocument();
  });
});
