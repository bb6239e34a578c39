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

const DOWNLOADING_ZH = "中文识别模型正在下载（42%），下载完成后即可使用，请稍后再试";
const NOT_INSTALLED_ZH = "本站暂未安装中文识别，请联系站点管理员";

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
  localStorage.clear(); // the last choice of language is remembered there
  setLang("zh");
  signInCookies();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const chosen = () => screen.getByTestId("chosen");

describe("language choice: a Chinese user is never defaulted into English (issue 41)", () => {
  it("Chinese downloading: nothing preselected, the progress in words, English for English speech only, no auto", async () => {
    signedInBackend({
      "GET /api/v1/dictation/configuration": () =>
        configuration([
          lang("zh", { state: "downloading", progress: 42, missing: DOWNLOADING_ZH }),
          lang("en"),
          // an identifier is ready, but without Chinese it cannot tell the languages apart
          lang("auto"),
        ]),
    });
    renderOptions();
    const options = await screen.findByTestId("transcribe-options");
    const zh = within(options).getByRole("radio", { name: /中文/ });
    expect(zh).toBeDisabled();
    expect(within(options).getByTestId("downloading-zh")).toHaveTextContent(
      "中文识别模型正在下载（42%） · 下载完成后即可选择",
    );
    const bar = within(options).getByRole("progressbar", { name: "中文模型下载进度" });
    expect(bar).toHaveAttribute("aria-valuenow", "42");
    // the state is the radio's description, for screen readers
    expect(zh).toHaveAccessibleDescription(/中文识别模型正在下载（42%）/);

    const en = within(options).getByRole("radio", { name: /英文/ });
    expect(en).toBeEnabled();
    expect(en).toHaveAccessibleDescription("仅适用于英文语音");
    expect(within(options).queryByRole("radio", { name: /自动识别/ })).toBeNull();
    // nothing chosen: the user is asked to choose
    expect(within(options).getByTestId("choose-language")).toHaveTextContent("请选择录音所说的语言");
    await new Promise((r) => setTimeout(r, 50));
    expect(chosen()).toHaveTextContent("");

    await userEvent.click(en);
    expect(chosen()).toHaveTextContent("en");
    expect(within(options).queryByTestId("choose-language")).toBeNull();
    // remembered: the next time, English is this user's preference
    expect(localStorage.getItem("yuelu_transcribe_language")).toBe("en");
  });

  it("Chinese not installed: says so in users' words, and what the user can do", async () => {
    signedInBackend({
      "GET /api/v1/dictation/configuration": () =>
        configuration([
          lang("zh", { state: "missing", missing: NOT_INSTALLED_ZH }),
          lang("en"),
          lang("auto", { state: "missing" }),
        ]),
    });
    renderOptions();
    const options = await screen.findByTestId("transcribe-options");
    expect(within(options).getByTestId("missing-zh")).toHaveTextContent(NOT_INSTALLED_ZH);
    expect(within(options).getByTestId("missing-zh").textContent).not.toMatch(/[A-Z]+_[A-Z]+|不可用：/);
    expect(within(options).getByRole("radio", { name: /英文/ })).not.toBeChecked();
    expect(within(options).getByTestId("note-en")).toHaveTextContent("仅适用于英文语音");
    expect(chosen()).toHaveTextContent("");
  });

  it("without the server's sentence, the state is worded by language", async () => {
    signedInBackend({
      "GET /api/v1/dictation/configuration": () =>
        configuration([
          lang("zh", { state: "missing" }),
          lang("en", { state: "failed" }),
          lang("auto", { state: "missing" }),
        ]),
    });
    renderOptions();
    expect(await screen.findByTestId("missing-zh")).toHaveTextContent("本站暂未安装中文识别，请联系站点管理员");
    expect(screen.getByTestId("missing-en")).toHaveTextContent("英文识别暂时不可用，请稍后再试或联系站点管理员");
    expect(screen.getByRole("alert")).toHaveTextContent("语音识别暂未就绪，暂时无法转写");
  });

  it("everything ready: Chinese is preselected in the Chinese UI, and auto is offered", async () => {
    signedInBackend({
      "GET /api/v1/dictation/configuration": () => configuration([lang("zh"), lang("en"), lang("auto")]),
    });
    renderOptions();
    await waitFor(() => expect(chosen()).toHaveTextContent("zh"));
    expect(screen.getByRole("radio", { name: /中文/ })).toBeChecked();
    expect(screen.getByRole("radio", { name: /自动识别/ })).toBeEnabled();
    expect(screen.queryByTestId("choose-language")).toBeNull();
  });

  it("auto is hidden where it cannot tell the languages apart (no identifier)", async () => {
    signedInBackend({
      "GET /api/v1/dictation/configuration": () =>
        configuration([lang("zh"), lang("en"), lang("auto", { state: "missing", missing: "暂不支持自动识别语种" })]),
    });
    renderOptions();
    await waitFor(() => expect(chosen()).toHaveTextContent("zh"));
    expect(screen.getAllByRole("radio").map((r) => (r as HTMLInputElement).value)).toEqual(["zh", "en"]);
    expect(screen.queryByText(/自动识别/)).toBeNull();
  });

  it("the last choice is preferred over the UI's language, where it is ready", async () => {
    localStorage.setItem("yuelu_transcribe_language", "en");
    signedInBackend({
      "GET /api/v1/dictation/configuration": () => configuration([lang("zh"), lang("en"), lang("auto")]),
    });
    renderOptions();
    await waitFor(() => expect(chosen()).toHaveTextContent("en"));
  });

  it("asks again every 5 s while a model downloads; Chinese is preselected once it is ready", async () => {
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
    expect(screen.getByTestId("downloading-zh")).toHaveTextContent("中文识别模型正在下载（10%）");

    await vi.advanceTimersByTimeAsync(5_000);
    await waitFor(() => expect(screen.getByTestId("downloading-zh")).toHaveTextContent("中文识别模型正在下载（87%）"));
    expect(chosen()).toHaveTextContent("");
    await vi.advanceTimersByTimeAsync(5_000);
    await waitFor(() => expect(screen.getByRole("radio", { name: /中文/ })).toBeEnabled());
    expect(screen.queryByTestId("downloading-zh")).toBeNull();
    // the user had not chosen: their language is preselected now that it is ready
    await waitFor(() => expect(chosen()).toHaveTextContent("zh"));

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
    expect(screen.queryByTestId("choose-language")).toBeNull();
  });

  it("in English: the English UI preselects English; the states in English, the server's sentence as it sent it", async () => {
    setLang("en");
    const sentence = "Chinese recognition is not installed on this site yet. Please contact the site administrator";
    const api = signedInBackend({
      "GET /api/v1/dictation/configuration": () =>
        configuration([lang("zh", { state: "missing", missing: sentence }), lang("en"), lang("auto")]),
    });
    renderOptions();
    await waitFor(() => expect(chosen()).toHaveTextContent("en"));
    expect(screen.getByTestId("missing-zh")).toHaveTextContent(sentence);
    expect(screen.getByRole("radio", { name: /English/ })).toHaveAccessibleDescription("For English speech only");
    expect(screen.queryByRole("radio", { name: /Detect/ })).toBeNull();
    expect(api.callsTo("/dictation/configuration")[0]!.headers.lang).toBe("en");
  });

  it("in English, a Chinese download shows its percentage and bar", async () => {
    setLang("en");
    signedInBackend({
      "GET /api/v1/dictation/configuration": () =>
        configuration([lang("zh", { state: "downloading", progress: 64 }), lang("en"), lang("auto")]),
    });
    renderOptions();
    expect(await screen.findByTestId("downloading-zh")).toHaveTextContent(
      "The Chinese model is downloading (64%) · it can be chosen once the download finishes",
    );
    expect(screen.getByRole("progressbar", { name: "Chinese model download" })).toHaveAttribute("aria-valuenow", "64");
  });
});

describe("a refusal for want of an engine (70001)", () => {
  const MESSAGE = DOWNLOADING_ZH;
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
