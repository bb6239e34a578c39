import { act, cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { type FakeCall, signInCookies } from "@/testing/fake-api.ts";
import { type FakeXhr, installFakeXhr } from "@/testing/fake-xhr.ts";
import { stubMedia, stubRecorder } from "@/testing/media.ts";
import { signedInBackend } from "@/testing/records-fixtures.ts";
import { renderApp } from "@/testing/render.tsx";
import type { MyVoice } from "../api/types.ts";
import { capabilities, libraryVoice, myVoice, quota } from "../testing/fixtures.ts";

// happy-dom reads no media length: the test says what the browser would have read
const duration = vi.hoisted(() => ({ seconds: null as number | null }));
vi.mock("@/lib/media-duration.ts", () => ({ readMediaDuration: async () => duration.seconds }));

type Routes = Record<string, (call: FakeCall) => unknown>;

function backend(voices: () => MyVoice[], routes: Routes = {}) {
  return signedInBackend({
    "GET /voice/my_voice/list": () => ({ total: voices().length, list: voices() }),
    "GET /voice/quota": () => quota(),
    "GET /voice/capabilities": () => capabilities(),
    "GET /new_tts/labs/get_sound_list": () => ({ total: 1, list: [libraryVoice(1)] }),
    ...routes,
  });
}

const fields = (xhr: FakeXhr) =>
  [...(xhr.body as FormData).entries()].map(([k, v]) => [k, typeof v === "string" ? v : "(file)"]);

beforeEach(() => {
  setLang("zh");
  signInCookies();
  duration.seconds = null;
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("/myVoice", () => {
  it("lists my voices with their profile, base voice and status, and calls it voice matching — never a clone", async () => {
    let polls = 0;
    let voices = [
      myVoice(1, { name: "我的声音" }),
      myVoice(2, { name: "新录的", status: 1, progress: 30, profile: null, previewUrl: "" }),
    ];
    const api = backend(() => voices, {
      "GET /voice/my_voice/progress": () => {
        polls += 1;
        if (polls === 1) return [{ id: 2, status: 1, progress: 60 }];
        voices = voices.map((v) => (v.voiceId === 2 ? myVoice(2, { name: "新录的" }) : v));
        return [{ id: 2, status: 2, progress: 100 }];
      },
    });
    renderApp("/myVoice");
    const cards = await screen.findAllByTestId("my-voice");
    expect(cards).toHaveLength(2);
    const [ready, analysing] = cards as [HTMLElement, HTMLElement];
    expect(within(ready).getByTestId("voice-status")).toHaveTextContent("可使用");
    expect(within(ready).getByTestId("method-badge")).toHaveTextContent("声音匹配");
    expect(within(ready).getByTestId("median-pitch")).toHaveTextContent("212 Hz");
    expect(within(ready).getByTestId("base-voice")).toHaveTextContent("晓晓");
    expect(ready).toHaveTextContent("168–282 Hz");
    expect(ready).toHaveTextContent("4.3 音节/秒");
    expect(within(analysing).getByTestId("voice-preview")).toBeDisabled();
    expect(await within(analysing).findByText("分析中 60%")).toBeInTheDocument();
    expect(within(analysing).getByRole("progressbar")).toHaveAttribute("aria-valuenow", "60");
    expect(screen.getByTestId("method-note")).toHaveTextContent("声音匹配");
    expect(document.body.textContent).not.toMatch(/克隆|clone/i);
    expect(screen.getByTestId("voice-count")).toHaveTextContent("已有 2 / 5 个声音");
    expect(screen.getByTestId("voice-quota")).toHaveTextContent("已用 2 / 10 个");
    // the analysis ends: the list is fetched again with the preview
    await waitFor(() => expect(analysing.dataset.phase).toBe("done"), { timeout: 5000 });
    expect(api.callsTo("/my_voice/progress")[0]!.url.searchParams.get("voiceIds")).toBe("2");
    await waitFor(() => expect(within(analysing).getByTestId("voice-preview")).toBeEnabled());
  });

  it("says clone only when the install makes clones", async () => {
    backend(() => [myVoice(1, { method: "clone", baseVoiceName: "" })], {
      "GET /voice/capabilities": () => capabilities({ myVoiceMethod: "clone" }),
    });
    renderApp("/myVoice");
    expect(await screen.findByTestId("method-badge", {}, { timeout: 3000 })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId("method-note")).toHaveAttribute("data-method", "clone"));
    expect(screen.getByTestId("method-note")).toHaveTextContent("声音克隆");
    expect(within(screen.getByTestId("my-voice")).getByTestId("method-badge")).toHaveTextContent("声音克隆");
    expect(screen.queryByTestId("base-voice")).toBeNull();
  });

  it("plays the preview and my sample; renames; deletes after saying the recordings go too", async () => {
    const media = stubMedia();
    let voices = [myVoice(1, { name: "我的声音" })];
    const api = backend(() => voices, {
      "POST /voice/my_voice/rename": ({ body }) => {
        const { name } = body as { name: string };
        voices = [myVoice(1, { name })];
        return voices[0];
      },
      "POST /voice/my_voice/delete": () => {
        voices = [];
        return { voiceId: 1 };
      },
    });
    renderApp("/myVoice");
    const card = await screen.findByTestId("my-voice");
    await userEvent.click(within(card).getByTestId("voice-preview"));
    const preview = within(card).getByTestId("preview-player");
    expect(preview.querySelector("audio")).toHaveAttribute("src", "/voice_yuelu/voice/my_voice/preview?voiceId=1");
    await userEvent.click(within(card).getByTestId("voice-sample"));
    const sample = within(card).getByTestId("sample-player");
    expect(sample.querySelector("audio")).toHaveAttribute("src", "/voice_yuelu/voice/my_voice/sample?voiceId=1");
    await userEvent.click(within(sample).getByRole("button", { name: "播放「「我的声音」的录音」" }));
    expect(media.played).toHaveLength(1);

    await userEvent.click(within(card).getByRole("button", { name: "重命名「我的声音」" }));
    const dialog = await screen.findByRole("dialog", { name: "重命名声音" });
    const input = within(dialog).getByRole("textbox", { name: "声音名称" });
    await userEvent.clear(input);
    await userEvent.type(input, "晚上的声音");
    await userEvent.click(within(dialog).getByRole("button", { name: "确定" }));
    await waitFor(() => expect(api.callsTo("/my_voice/rename")).toHaveLength(1));
    expect(api.callsTo("/my_voice/rename")[0]!.body).toEqual({ voiceId: 1, name: "晚上的声音" });
    expect(await screen.findByText("晚上的声音")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "删除「晚上的声音」" }));
    const confirm = await screen.findByRole("dialog", { name: "删除声音" });
    expect(confirm).toHaveTextContent("您上传的录音和试听音频都会被删除");
    await userEvent.click(within(confirm).getByTestId("confirm"));
    await waitFor(() => expect(api.callsTo("/my_voice/delete")).toHaveLength(1));
    expect(api.callsTo("/my_voice/delete")[0]!.body).toEqual({ voiceId: 1 });
    // no voice left: the new-voice form shows
    expect(await screen.findByTestId("new-voice")).toBeInTheDocument();
  });

  it("records with the guided recorder: prompts, timer, refuses under 10 s, then sends one voice with progress", async () => {
    stubMedia();
    const Xhr = installFakeXhr();
    const mic = stubRecorder();
    const voices: MyVoice[] = [];
    backend(() => voices);
    renderApp("/myVoice");
    const panel = await screen.findByTestId("new-voice");
    expect(within(panel).getByText(/今天的天气很好/)).toBeInTheDocument();
    await userEvent.type(within(panel).getByTestId("voice-name-input"), "早上的我");

    // 6 seconds: kept for listening, not for sending
    await userEvent.click(within(panel).getByTestId("recorder-start"));
    expect(mic.getUserMedia).toHaveBeenCalled();
    expect(await within(panel).findByTestId("recorder-stop")).toBeInTheDocument();
    mic.advance(6);
    await userEvent.click(within(panel).getByTestId("recorder-stop"));
    expect(await within(panel).findByTestId("take-too-short")).toHaveTextContent("录音只有 6 秒，至少需要 10 秒");
    expect(within(panel).getByTestId("take-player")).toBeInTheDocument();
    expect(within(panel).getByTestId("create-voice")).toBeDisabled();
    expect(mic.stopped).toContain("track");

    // again, 14 seconds
    await userEvent.click(within(panel).getByRole("button", { name: "重新录制" }));
    await within(panel).findByTestId("recorder-stop");
    mic.advance(14);
    await userEvent.click(within(panel).getByTestId("recorder-stop"));
    await waitFor(() => expect(within(panel).getByTestId("create-voice")).toBeEnabled());
    expect(within(panel).queryByTestId("take-too-short")).toBeNull();

    // a double click sends once
    await userEvent.dblClick(within(panel).getByTestId("create-voice"));
    expect(Xhr.instances).toHaveLength(1);
    const xhr = Xhr.instances[0]!;
    expect(new URL(xhr.url, window.location.origin).pathname).toBe("/voice_yuelu/voice/my_voice/create");
    const sent = fields(xhr);
    expect(sent.map(([k]) => k)).toEqual(["name", "language", "requestId", "file"]);
    expect(sent[0]).toEqual(["name", "早上的我"]);
    expect(sent[1]).toEqual(["language", "zh"]);
    expect(sent[2]![1]).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(((xhr.body as FormData).get("file") as File).name).toMatch(/\.webm$/);
    act(() => xhr.progress(1024, 2048));
    expect(await screen.findByRole("progressbar", { name: "上传进度" })).toHaveAttribute("aria-valuenow", "50");
    expect(within(panel).getByTestId("create-voice")).toBeDisabled();
    voices.push(myVoice(7, { name: "早上的我", status: 3, progress: 0, profile: null }));
    act(() => xhr.respond(voices[0]));
    expect(await screen.findByText("早上的我")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId("new-voice")).toBeNull());
  });

  it("uploads a file instead, and shows the server's reason when the sample is refused", async () => {
    const Xhr = installFakeXhr();
    backend(() => []);
    renderApp("/myVoice");
    const panel = await screen.findByTestId("new-voice");
    await userEvent.type(within(panel).getByTestId("voice-name-input"), "文件");
    await userEvent.click(within(panel).getByTestId("sample-upload"));
    duration.seconds = 4;
    await userEvent.upload(
      within(panel).getByTestId("sample-file"),
      new File(["x"], "short.wav", { type: "audio/wav" }),
    );
    expect(await within(panel).findByTestId("sample-refused")).toHaveTextContent("这段录音只有 4 秒，至少需要 10 秒");
    expect(within(panel).getByTestId("create-voice")).toBeDisabled();

    duration.seconds = 30;
    await userEvent.upload(within(panel).getByTestId("sample-file"), new File(["x"], "me.mp3", { type: "audio/mpeg" }));
    expect(await within(panel).findByTestId("sample-picked")).toHaveTextContent("me.mp3");
    await userEvent.click(within(panel).getByTestId("create-voice"));
    const xhr = Xhr.instances[0]!;
    act(() => xhr.respond(null, 40003, 200, "背景噪音太大，请在安静的地方录制"));
    expect(await within(panel).findByTestId("new-voice-problem")).toHaveTextContent("背景噪音太大");
    expect(within(panel).getByTestId("create-voice")).toBeEnabled();
  });

  it("re-trains a voice with a new file", async () => {
    const Xhr = installFakeXhr();
    duration.seconds = 20;
    backend(() => [myVoice(3, { name: "旧的" })]);
    renderApp("/myVoice");
    const card = await screen.findByTestId("my-voice");
    await userEvent.click(within(card).getByTestId("voice-retrain"));
    const dialog = await screen.findByRole("dialog", { name: "重新训练「旧的」" });
    await userEvent.click(within(dialog).getByTestId("sample-upload"));
    await userEvent.upload(
      within(dialog).getByTestId("sample-file"),
      new File(["x"], "new.m4a", { type: "audio/mp4" }),
    );
    await userEvent.click(await within(dialog).findByTestId("retrain-submit"));
    const xhr = Xhr.instances[0]!;
    expect(xhr.url).toContain("/voice/my_voice/retrain");
    expect(fields(xhr).map(([k]) => k)).toEqual(["voiceId", "requestId", "file"]);
    expect(fields(xhr)[0]).toEqual(["voiceId", "3"]);
    act(() => xhr.respond(myVoice(3, { name: "旧的", status: 3 })));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("asks an anonymous visitor to sign in", async () => {
    document.cookie = "userid=; Max-Age=0; path=/";
    const { refreshSession } = await import("@/lib/session.ts");
    refreshSession();
    backend(() => []);
    renderApp("/myVoice");
    expect(await screen.findByText("登录后查看")).toBeInTheDocument();
  });
});
