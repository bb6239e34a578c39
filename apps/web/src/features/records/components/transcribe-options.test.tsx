import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { DictationLanguage } from "@yuelu/contracts";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { envelopeError, signInCookies } from "@/testing/fake-api.ts";
import { record, signedInBackend } from "@/testing/records-fixtures.ts";
import { renderApp, renderInApp } from "@/testing/render.tsx";
import { DEFAULT_OPTIONS, type DictationOptions } from "../api/start-dictation.ts";
import { TranscribeOptions } from "./transcribe-options.tsx";

const DOWNLOADING_ZH = "语音识别模型正在下载（42%），下载完成后即可使用，请稍后再试";
const FAILED_ZH =
  "语音识别模型下载失败，服务器会自动重试；如持续失败，请联系管理员设置 HF_ENDPOINT 镜像或运行 npm run models:fetch";

function lang(value: DictationLanguage["value"], over: Partial<DictationLanguage> = {}): DictationLanguage {
  const ready = (over.state ?? "ready") === "ready";
  return { value, label: value, available: ready, state: "ready", engine: "sherpa", ...over };
}

function configuration(languages: DictationLanguage[]) {
  return { languages, maxSpeakers: 10, maxSeconds: 10800 };
}

/** The options as the transcription panel holds them, with the chosen language shown for assertions. */
function Options() {
  const [value, setValue] = useState<DictationOptions>(DEFAULT_OPTIONS);
  return (
    <>
      <TranscribeOptions value={value} onChange={setValue} />
      <output data-testid="chosen">{value.language}</output>
    </>
  );
}

const renderOptions = () => renderInApp(<Options />);

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("language choice: the engine's state in words", () => {
  it("ready can be chosen; downloading shows its percentage and bar; missing and failed say why", async () => {
    signedInBackend({
      "GET /api/v1/dictation/configuration": () =>
        configuration([
          lang("zh", { state: "downloading", progress: 42, missing: DOWNLOADING_ZH }),
          lang("en"),
          lang("auto", { state: "failed", missing: FAILED_ZH }),
        ]),
    });
    renderOptions();
    const options = await screen.findByTestId("transcribe-options");
    const zh = within(options).getByRole("radio", { name: /中文/ });
    expect(zh).toBeDisabled();
    expect(within(options).getByTestId("downloading-zh")).toHaveTextContent("模型下载中 42% · 下载完成后即可选择");
    const bar = within(options).getByRole("progressbar", { name: "中文模型下载进度" });
    expect(bar).toHaveAttribute("aria-valuenow", "42");
    // the state is the radio's description, for screen readers
    expect(zh).toHaveAccessibleDescription(/模型下载中 42%/);

    expect(within(options).getByRole("radio", { name: /自动识别/ })).toBeDisabled();
    expect(within(options).getByTestId("missing-auto")).toHaveTextContent(`不可用：${FAILED_ZH}`);
    expect(within(options).getByRole("radio", { name: /英文/ })).toBeEnabled();
    await waitFor(() => expect(screen.getByTestId("chosen")).toHaveTextContent("en"));
    expect(within(options).queryByRole("alert")).toBeNull();
  });

  it("asks again every 5 s while a model downloads, and the language becomes selectable when it is done", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const answers = [
      configuration([
        lang("zh", { state: "downloading", progress: 10 }),
        lang("en"),
        lang("auto", { state: "missing" }),
      ]),
      configuration([
        lang("zh", { state: "downloading", progress: 87 }),
        lang("en"),
        lang("auto", { state: "missing" }),
      ]),
      configuration([lang("zh"), lang("en"), lang("auto", { state: "missing" })]),
    ];
    let asked = 0;
    const api = signedInBackend({
      "GET /api/v1/dictation/configuration": () => answers[Math.min(asked++, answers.length - 1)],
    });
    renderOptions();
    const zh = await screen.findByRole("radio", { name: /中文/ });
    expect(zh).toBeDisabled();
    expect(screen.getByTestId("downloading-zh")).toHaveTextContent("模型下载中 10%");

    await vi.advanceTimersByTimeAsync(5_000);
    await waitFor(() => expect(screen.getByTestId("downloading-zh")).toHaveTextContent("模型下载中 87%"));
    await vi.advanceTimersByTimeAsync(5_000);
    await waitFor(() => expect(screen.getByRole("radio", { name: /中文/ })).toBeEnabled());
    expect(screen.queryByTestId("downloading-zh")).toBeNull();
    // without a state, missing shows the plain word
    expect(screen.getByTestId("missing-auto")).toHaveTextContent("未安装");
    await userEvent.click(screen.getByRole("radio", { name: /中文/ }));
    expect(screen.getByTestId("chosen")).toHaveTextContent("zh");

    // nothing downloads any more: no more polling
    const calls = api.callsTo("/dictation/configuration").length;
    expect(calls).toBe(3);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(api.callsTo("/dictation/configuration")).toHaveLength(calls);
  });

  it("nothing ready yet, one downloading: says transcription can start when the download finishes", async () => {
    signedInBackend({
      "GET /api/v1/dictation/configuration": () =>
        configuration([
          lang("zh", { state: "downloading", progress: 3 }),
          lang("en", { state: "missing", missing: "x" }),
          lang("auto", { state: "missing", missing: "x" }),
        ]),
    });
    renderOptions();
    expect(await screen.findByRole("alert")).toHaveTextContent("语音识别模型正在下载，下载完成后即可转写");
  });

  it("in English: the states in English, the server's sentence as it sent it", async () => {
    setLang("en");
    const sentence = "The speech model could not be downloaded; the server retries by itself.";
    const api = signedInBackend({
      "GET /api/v1/dictation/configuration": () =>
        configuration([
          lang("zh", { state: "downloading", progress: 64 }),
          lang("en"),
          lang("auto", { state: "failed", missing: sentence }),
        ]),
    });
    renderOptions();
    expect(await screen.findByTestId("downloading-zh")).toHaveTextContent(
      "downloading the model: 64% · it can be chosen once the download finishes",
    );
    expect(screen.getByRole("progressbar", { name: "Chinese model download" })).toHaveAttribute("aria-valuenow", "64");
    expect(screen.getByTestId("missing-auto")).toHaveTextContent(`unavailable: ${sentence}`);
    expect(api.callsTo("/dictation/configuration")[0]!.headers.lang).toBe("en");
  });
});

describe("a refusal for want of an engine (70001)", () => {
  const MESSAGE = "中文语音识别模型正在下载（42%），下载完成后即可使用，请稍后再试";
  const FILE_MESSAGE = "服务器未安装中文语音识别模型，请联系管理员";

  async function startFromDetail(routes: Parameters<typeof signedInBackend>[0]) {
    const api = signedInBackend({
      "GET /api/v3/audio/record/get_record_by_id": () => record({ fileId: 1, fileStatus: 0, progress: 0 }),
      ...routes,
    });
    renderApp("/detail?fileId=1");
    await userEvent.click(await screen.findByTestId("detail-transcribe"));
    await waitFor(() => expect(api.callsTo("/dictation/configuration")).toHaveLength(1));
    await userEvent.click(await screen.findByTestId("confirm-transcribe"));
    await waitFor(() => expect(api.callsTo("/dictation_batch")).toHaveLength(1));
    return api;
  }

  it("refused as a whole: the server's translated message is shown as it is, and the states asked again", async () => {
    const api = await startFromDetail({
      "POST /api/v2/dictation/audio/dictation_batch": () => envelopeError(70001, MESSAGE),
    });
    expect(await screen.findByText(MESSAGE)).toBeInTheDocument();
    expect(screen.queryByText(/服务引擎不可用/)).toBeNull();
    await waitFor(() => expect(api.callsTo("/dictation/configuration").length).toBeGreaterThan(1));
  });

  it("refused for one file: that file's message is shown as it is", async () => {
    const api = await startFromDetail({
      "POST /api/v2/dictation/audio/dictation_batch": () => ({
        tasks: [{ fileId: 1, taskId: null, fileStatus: 0, code: 70001, message: FILE_MESSAGE }],
      }),
    });
    expect(await screen.findByText(FILE_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByText("已提交转写")).toBeNull();
    await waitFor(() => expect(api.callsTo("/dictation/configuration").length).toBeGreaterThan(1));
  });
});
