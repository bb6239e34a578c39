import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { signInCookies } from "@/testing/fake-api.ts";
import { FakeXhr, installFakeXhr } from "@/testing/fake-xhr.ts";
import { stubRecorder } from "@/testing/media.ts";
import { signedInBackend } from "@/testing/records-fixtures.ts";
import { renderApp } from "@/testing/render.tsx";
import { uploads } from "../hooks/upload-store.ts";
import { rememberLanguage } from "../lib/languages.ts";

const MiB = 1024 * 1024;

/** A file that says it has `size` bytes; only the slices the uploader reads are made (zeros). */
function file(name: string, size: number, type = "audio/mpeg") {
  const f = new File(["x"], name, { type });
  Object.defineProperty(f, "size", { value: size });
  Object.defineProperty(f, "slice", {
    value: (start = 0, end = size) => new Blob([new Uint8Array(Math.max(0, Math.min(end, size) - start))]),
  });
  return f;
}

async function choose(files: File[]) {
  const input = await screen.findByTestId("file-input");
  Object.defineProperty(input, "files", { value: files, configurable: true });
  fireEvent.change(input);
}

/** The n-th upload request, once the files' checks (their length included) let it go. */
async function sent(n = 0): Promise<FakeXhr> {
  await waitFor(() => expect(FakeXhr.instances.length).toBeGreaterThan(n));
  return FakeXhr.instances[n]!;
}

const uploaded = { fileId: 7, fileName: "周会.mp3", timeLen: 95, fileStatus: 0, fileSize: 2 * MiB, format: "mp3" };
const UPLOADS = "/voice_yuelu/api/v1/audio/uploads";

/** The Upload-Metadata a tus request carried, decoded. */
function metadataOf(xhr: FakeXhr): Record<string, string> {
  return Object.fromEntries(
    (xhr.headers["Upload-Metadata"] ?? "").split(",").map((pair) => {
      const [key, value = ""] = pair.trim().split(" ");
      return [key, new TextDecoder().decode(Uint8Array.from(atob(value), (c) => c.charCodeAt(0)))];
    }),
  );
}

/** Lets the n-th request create the upload and the next one bring all of its `size` bytes: the record. */
async function finish(data: unknown, size: number, n = 0) {
  created(await sent(n));
  (await sent(n + 1)).respondTus(
    200,
    { "Upload-Offset": String(size) },
    JSON.stringify({ status_code: 1, status_msg: "success", data }),
  );
}

/** Answers a tus creation (POST) with the upload's URL. */
function created(xhr: FakeXhr, id = "0123456789abcdef0123456789abcdef") {
  expect(xhr.method).toBe("POST");
  xhr.respondTus(201, { Location: `${UPLOADS}/${id}` });
}

beforeEach(() => {
  localStorage.clear(); // tus-js-client keeps upload URLs there, to resume
  setLang("zh");
  signInCookies();
  installFakeXhr();
});
afterEach(() => {
  cleanup(); // unmount before the fake backend goes: the app keeps loading in the background
  window.history.replaceState(null, "", "/");
  uploads.reset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks(); // the recorder's clock and the scroll spy
});

describe("/transaudio upload (spec §5)", () => {
  it("refuses other extensions and files over 1 GiB before sending anything", async () => {
    signedInBackend({});
    renderApp("/transaudio");
    await choose([file("evil.exe", 10), file("huge.mp4", 1_073_741_825), file("rec.ogx", 10)]);
    const alert = await screen.findByTestId("upload-refusals");
    await waitFor(() => expect(alert).toHaveTextContent("rec.ogx"));
    expect(alert).toHaveTextContent("不支持的文件格式：evil.exe");
    expect(alert).toHaveTextContent("文件超过 1 GB：huge.mp4");
    expect(alert).toHaveTextContent("不支持的文件格式：rec.ogx");
    expect(FakeXhr.instances).toHaveLength(0);
    expect(screen.queryByTestId("upload-item")).toBeNull();
  });

  it("refuses a dropped file the same way, and sends the good one", async () => {
    signedInBackend({});
    renderApp("/transaudio");
    const zone = await screen.findByTestId("upload-zone");
    fireEvent.drop(zone, { dataTransfer: { files: [file("notes.txt", 3), file("ok.wav", 3 * MiB)] } });
    expect(await screen.findByTestId("upload-refusals")).toHaveTextContent("notes.txt");
    await sent();
    expect(screen.getByTestId("upload-item")).toHaveTextContent("ok.wav");
  });

  it("uploads into the chosen folder (menuId in the upload's metadata)", async () => {
    signedInBackend({ "GET /api/v2/menu/sound_list": () => [{ menuId: "5", menuName: "会议" }] });
    renderApp("/transaudio");
    await userEvent.selectOptions(await screen.findByRole("combobox", { name: "上传到文件夹" }), "5");
    await choose([file("a.mp3", 10)]);
    const xhr = await sent();
    expect(metadataOf(xhr)).toMatchObject({ filename: "a.mp3", filetype: "audio/mpeg", menuId: "5" });
  });

  it("shows bytes and percent while sending, then the options; transcription starts and is followed to the link", async () => {
    let polls = 0;
    const api = signedInBackend({
      // a fresh install: Chinese not installed yet, English ready (issue 41)
      "GET /api/v1/dictation/configuration": () => ({
        languages: [
          {
            value: "zh",
            label: "中文",
            available: false,
            state: "missing",
            engine: "sherpa",
            missing: "本站暂未安装中文识别，请联系站点管理员",
          },
          { value: "en", label: "英文", available: true, state: "ready", engine: "moonshine" },
          { value: "auto", label: "自动识别", available: false, state: "missing", engine: "none" },
        ],
        maxSpeakers: 10,
        maxSeconds: 10800,
      }),
      "POST /api/v2/dictation/audio/dictation_batch": () => ({
        tasks: [{ fileId: 7, taskId: 70, fileStatus: 3, code: 1 }],
      }),
      "GET /api/v1/dictation/progress/get_progress": () => {
        polls += 1;
        return polls === 1
          ? [{ fileId: 7, fileStatus: 1, progress: 40, taskId: 70 }]
          : [{ fileId: 7, fileStatus: 2, progress: 100, taskId: 70 }];
      },
    });
    window.history.replaceState(null, "", "/transaudio?key=abc"); // the page's key travels as a header
    renderApp("/transaudio?key=abc");
    await choose([file("周会.mp3", 2 * MiB)]);

    // tus: the upload is created (name and type as metadata), then its bytes are PATCHed
    const creation = await sent();
    expect(creation.method).toBe("POST");
    expect(new URL(creation.url, location.origin).pathname).toBe(UPLOADS);
    expect(creation.headers).toMatchObject({
      source: "0",
      lang: "zh",
      key: "abc",
      "Tus-Resumable": "1.0.0",
      "Upload-Length": String(2 * MiB),
    });
    expect(metadataOf(creation)).toMatchObject({ filename: "周会.mp3", filetype: "audio/mpeg" });
    created(creation);
    const xhr = await sent(1);
    expect(xhr.method).toBe("PATCH");
    expect(xhr.headers).toMatchObject({ "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" });

    xhr.progress(MiB, 2 * MiB);
    const bar = await screen.findByRole("progressbar", { name: "周会.mp3 上传进度" });
    expect(bar).toHaveAttribute("aria-valuenow", "50");
    expect(screen.getByTestId("upload-bytes")).toHaveTextContent("1.0MB / 2.0MB · 50%");
    xhr.progress(1.5 * MiB, 2 * MiB);
    await waitFor(() => expect(bar).toHaveAttribute("aria-valuenow", "75"));

    // the last PATCH answers the usual envelope
    xhr.respondTus(
      200,
      { "Upload-Offset": String(2 * MiB) },
      JSON.stringify({ status_code: 1, status_msg: "success", data: uploaded }),
    );
    expect(await screen.findByText("上传完成")).toBeInTheDocument();
    const options = await screen.findByTestId("transcribe-options");
    // Chinese has no engine here: disabled, with the server's reason; auto cannot tell languages apart: not
    // offered; English is not chosen for a Chinese user in silence — they choose it, and it says what it is for.
    expect(within(options).getByRole("radio", { name: /中文/ })).toBeDisabled();
    expect(within(options).getByTestId("missing-zh")).toHaveTextContent("本站暂未安装中文识别，请联系站点管理员");
    expect(within(options).queryByRole("radio", { name: /自动识别/ })).toBeNull();
    const english = within(options).getByRole("radio", { name: /英文/ });
    expect(english).not.toBeChecked();
    expect(english).toHaveAccessibleDescription(/仅适用于英文语音/);
    expect(within(options).getByTestId("choose-language")).toHaveTextContent("请选择录音所说的语言");
    expect(screen.getByTestId("start-transcription")).toBeDisabled();
    await userEvent.click(english);
    expect(within(options).queryByTestId("choose-language")).toBeNull();
    await userEvent.selectOptions(within(options).getByRole("combobox"), "2");

    const quotaLoads = api.callsTo("/storage_info").length;
    await userEvent.click(screen.getByTestId("start-transcription"));
    await waitFor(() => expect(api.callsTo("/dictation_batch")).toHaveLength(1));
    // charged at once: the quota bars on this page are fetched again straight away
    await waitFor(() => expect(api.callsTo("/storage_info").length).toBeGreaterThan(quotaLoads));
    const body = api.callsTo("/dictation_batch")[0]!.body as { fileIds: string; dictationParam: string };
    expect(body.fileIds).toBe("7");
    expect(JSON.parse(body.dictationParam)).toEqual({ source: 0, answerVersion: 3, language: "en", speakerCount: 2 });

    expect(await screen.findByText("转写中 40%")).toBeInTheDocument();
    const link = await screen.findByTestId("open-transcript", {}, { timeout: 5000 });
    expect(link).toHaveAttribute("href", "/detail?fileId=7&timeLen=95&fileName=%E5%91%A8%E4%BC%9A.mp3");
    expect(screen.getByTestId("transcription-status")).toHaveTextContent("已完成");
    expect(api.callsTo("/get_progress")[0]!.url.searchParams.get("fileIds")).toBe("7");
  });

  it("cancels, resumes where the server stopped, shows a server refusal, and retries a dropped network by itself", async () => {
    signedInBackend({});
    renderApp("/transaudio");
    await choose([file("talk.m4a", 4 * MiB)]);
    created(await sent());
    const first = await sent(1);
    await userEvent.click(await screen.findByRole("button", { name: "取消" }));
    expect(first.aborted).toBe(true);
    expect(await screen.findByText("已取消")).toBeInTheDocument();

    // retry: the upload's URL was kept, so it asks the server how far it got and goes on from there
    await userEvent.click(screen.getByRole("button", { name: "重试" }));
    const head = await sent(2);
    expect(head.method).toBe("HEAD");
    expect(new URL(head.url, location.origin).pathname).toBe(`${UPLOADS}/0123456789abcdef0123456789abcdef`);
    head.respondTus(200, { "Upload-Offset": String(2.5 * MiB), "Upload-Length": String(4 * MiB) });
    const resumed = await sent(3);
    expect(resumed.headers["Upload-Offset"]).toBe(String(2.5 * MiB));
    expect(await screen.findByTestId("upload-resumed")).toHaveTextContent("从 62% 处继续上传");
    resumed.respondTus(415, {}, JSON.stringify({ status_code: 20004, status_msg: "文件内容不是音视频", data: null }));
    expect(await screen.findByText("上传失败")).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("文件内容不是音视频");

    // the refused upload is gone on the server (404): a new one is created, and refused as too large
    await userEvent.click(screen.getByRole("button", { name: "重试" }));
    (await sent(4)).respondTus(404, {}, "");
    const again = await sent(5);
    expect(again.method).toBe("POST");
    again.respondRaw(413, "too large");
    expect(await screen.findByText("文件太大，单个文件不能超过 1 GB")).toBeInTheDocument();

    // a dropped network is retried by itself: the item stays "uploading" and goes on
    await userEvent.click(screen.getByRole("button", { name: "重试" }));
    (await sent(6)).fail();
    created(await sent(7));
    const patch = await sent(8);
    expect(screen.getByText("上传中")).toBeInTheDocument();
    patch.respondTus(
      200,
      { "Upload-Offset": String(4 * MiB) },
      JSON.stringify({ status_code: 1, status_msg: "success", data: { ...uploaded, fileName: "talk.m4a" } }),
    );
    expect(await screen.findByText("上传完成")).toBeInTheDocument();
  });

  it("says so when the microphone is denied", async () => {
    signedInBackend({});
    vi.stubGlobal(
      "MediaRecorder",
      Object.assign(function MediaRecorder() {}, { isTypeSupported: (t: string) => t.startsWith("audio/webm") }),
    );
    Object.defineProperty(navigator, "mediaDevices", {
      configurable: true,
      value: { getUserMedia: () => Promise.reject(new DOMException("denied", "NotAllowedError")) },
    });
    renderApp("/transaudio");
    // one click asks for the microphone (issue 43): no second "start recording" to press
    await userEvent.click(await screen.findByRole("button", { name: "开始录音" }));
    // the browser's own WebM is recorded as it is: no notice about relabelling it
    expect(await screen.findByTestId("recorder-error")).toHaveTextContent("麦克风权限被拒绝");
    expect(screen.queryByText(/Matroska|\.mkv/)).toBeNull();
    expect(screen.getByTestId("recorder-start")).toHaveTextContent("重试");
    Object.defineProperty(navigator, "mediaDevices", { configurable: true, value: undefined });
  });
});

describe("/transaudio length limits (files up to 5 hours; transcription up to 3 hours)", () => {
  const HOUR = 3600;

  it("states both limits in the upload box, in Chinese and in English", async () => {
    signedInBackend({});
    renderApp("/transaudio");
    const limits = await screen.findByTestId("upload-limits");
    expect(limits).toHaveTextContent("单个文件最大 1 GB、5 小时");
    expect(limits).toHaveTextContent("每个文件最长转写 3 小时");
    setLang("en");
    await waitFor(() => expect(limits).toHaveTextContent("Files up to 1 GB and 5 hours"));
    expect(limits).toHaveTextContent("Transcription: up to 3 hours per file");
  });

  it("refuses a file over 5 hours before uploading it, when the browser reads its length", async () => {
    signedInBackend({});
    uploads.setDurationReader(async (f) => (f.name === "long.mp3" ? 5 * HOUR + 60 : 600));
    renderApp("/transaudio");
    await choose([file("long.mp3", 30 * MiB), file("short.mp3", MiB)]);
    expect(await screen.findByTestId("upload-refusals")).toHaveTextContent("文件超过 5 小时：long.mp3");
    const xhr = await sent();
    expect(metadataOf(xhr).filename).toBe("short.mp3");
    expect(FakeXhr.instances).toHaveLength(1);
  });

  it("refuses a 3 h 10 min file before uploading it (issue 43), and uploads it only if the user keeps it anyway", async () => {
    signedInBackend({});
    uploads.setDurationReader(async (f) => (f.name === "会议.mp3" ? 3 * HOUR + 600 : 600));
    renderApp("/transaudio");
    await choose([file("会议.mp3", 40 * MiB), file("short.mp3", MiB)]);
    const refusal = await screen.findByTestId("refused-overTranscribeLimit");
    expect(refusal).toHaveTextContent(
      "会议.mp3 时长 3 小时 10 分钟，超过单个文件 3 小时的转写上限，未上传。请剪成每段不超过 3 小时后再上传",
    );
    // the other file goes; not a byte of the long one
    const xhr = await sent();
    expect(metadataOf(xhr).filename).toBe("short.mp3");
    expect(FakeXhr.instances).toHaveLength(1);
    expect(screen.getAllByTestId("upload-item")).toHaveLength(1);

    // kept knowingly: it is uploaded, said to be too long to transcribe, and never offered for it
    await userEvent.click(within(refusal).getByTestId("keep-long"));
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(2));
    expect(metadataOf(FakeXhr.instances[1]!).filename).toBe("会议.mp3");
    expect(screen.queryByTestId("refused-overTranscribeLimit")).toBeNull();
    expect(await screen.findByTestId("upload-too-long")).toHaveTextContent(
      "时长 3 小时 10 分钟，超过单个文件 3 小时的转写上限",
    );
    await finish({ ...uploaded, fileName: "会议.mp3", timeLen: 3 * HOUR + 600 }, 40 * MiB, 1);
    await waitFor(() => expect(screen.getAllByText("上传完成")).toHaveLength(1));
    expect(screen.queryByTestId("start-transcription")).toBeNull();
  });

  it("when the browser cannot read the length, says so right after the upload from the server's timeLen", async () => {
    signedInBackend({});
    renderApp("/transaudio");
    await choose([file("录音.amr", 8 * MiB)]);
    await sent();
    expect(screen.queryByTestId("upload-too-long")).toBeNull();
    await finish({ ...uploaded, fileName: "录音.amr", format: "amr", timeLen: 3 * HOUR + 5 }, 8 * MiB);
    expect(await screen.findByTestId("upload-too-long")).toHaveTextContent("超过单个文件 3 小时的转写上限");
    expect(screen.queryByTestId("start-transcription")).toBeNull();
  });

  it("a file of exactly 3 hours is offered for transcription", async () => {
    signedInBackend({});
    uploads.setDurationReader(async () => 3 * HOUR);
    renderApp("/transaudio");
    await choose([file("three.mp3", 40 * MiB)]);
    await finish({ ...uploaded, timeLen: 3 * HOUR }, 40 * MiB);
    expect(await screen.findByTestId("start-transcription")).toBeInTheDocument();
    expect(screen.queryByTestId("upload-too-long")).toBeNull();
  });
});

describe("/transaudio recording in one click (issue 43)", () => {
  const LIVE_ZH_MISSING = {
    languages: [
      { value: "zh", label: "中文", available: true, state: "ready", engine: "sherpa" },
      { value: "en", label: "英文", available: true, state: "ready", engine: "moonshine" },
    ],
    maxSpeakers: 10,
    maxSeconds: 10800,
    live: { zh: false, en: true },
  };

  it("one click records with the recorder in view; stop and transcribe uploads it and starts its transcription", async () => {
    const mic = stubRecorder();
    const scrolled = vi.spyOn(Element.prototype, "scrollIntoView").mockImplementation(() => {});
    uploads.setDurationReader(async () => null);
    const api = signedInBackend({
      "POST /api/v2/dictation/audio/dictation_batch": () => ({
        tasks: [{ fileId: 7, taskId: 70, fileStatus: 3, code: 1 }],
      }),
      "GET /api/v1/dictation/progress/get_progress": () => [{ fileId: 7, fileStatus: 1, progress: 20, taskId: 70 }],
    });
    renderApp("/transaudio");
    await userEvent.click(await screen.findByRole("button", { name: "开始录音" }));
    const recorder = await screen.findByTestId("recorder");
    expect(await within(recorder).findByText("录音中")).toBeInTheDocument();
    expect(mic.getUserMedia).toHaveBeenCalledTimes(1);
    expect(scrolled).toHaveBeenCalled();
    expect(scrolled.mock.contexts.at(-1)).toBe(recorder);
    // no second "start recording" anywhere while it records
    expect(screen.queryByRole("button", { name: "开始录音" })).toBeNull();
    expect(screen.queryByTestId("recorder-start")).toBeNull();
    // the recorder comes before the drop zone, and the transcription settings with it (Chinese preselected)
    const zone = screen.getByTestId("upload-zone");
    expect(recorder.compareDocumentPosition(zone) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const options = screen.getByTestId("transcribe-options");
    expect(within(options).getByRole("radio", { name: /中文/ })).toBeChecked();
    await userEvent.selectOptions(within(options).getByRole("combobox"), "2");

    mic.advance(5);
    await userEvent.click(within(recorder).getByTestId("recorder-stop-transcribe"));
    // uploaded with the transcription to follow
    expect(await screen.findByTestId("upload-then-transcribe")).toHaveTextContent("上传完成后自动开始转写");
    await finish({ ...uploaded, fileName: "录音.webm", format: "webm", timeLen: 5, fileSize: 2048 }, 2048);
    await waitFor(() => expect(api.callsTo("/dictation_batch")).toHaveLength(1));
    const body = api.callsTo("/dictation_batch")[0]!.body as { fileIds: string; dictationParam: string };
    expect(body.fileIds).toBe("7");
    expect(JSON.parse(body.dictationParam)).toEqual({ source: 0, answerVersion: 3, language: "zh", speakerCount: 2 });
    // its progress follows; nothing is left to press
    expect(await screen.findByText("转写中 20%")).toBeInTheDocument();
    expect(screen.queryByTestId("start-transcription")).toBeNull();
    expect(screen.queryByTestId("upload-then-transcribe")).toBeNull();
    // idle again: one button records another, and the page's own is back once the recorder is closed
    expect(within(recorder).getByTestId("recorder-start")).toHaveTextContent("再录一段");
    await userEvent.click(within(recorder).getByTestId("recorder-close"));
    expect(await screen.findByRole("button", { name: "开始录音" })).toBeInTheDocument();
  });

  it("stop and upload still only uploads: the settings wait under it for the user", async () => {
    const mic = stubRecorder();
    uploads.setDurationReader(async () => null);
    const api = signedInBackend({});
    renderApp("/transaudio");
    await userEvent.click(await screen.findByRole("button", { name: "开始录音" }));
    const recorder = await screen.findByTestId("recorder");
    await within(recorder).findByText("录音中");
    mic.advance(3);
    await userEvent.click(within(recorder).getByTestId("recorder-stop"));
    await finish({ ...uploaded, fileName: "录音.webm", format: "webm", timeLen: 3, fileSize: 2048 }, 2048);
    expect(await screen.findByTestId("start-transcription")).toBeInTheDocument();
    expect(api.callsTo("/dictation_batch")).toHaveLength(0);
  });

  it("captions follow the transcription language, never one the server lacks; recording waits to know which", async () => {
    stubRecorder();
    let answer: (value: unknown) => void = () => {};
    signedInBackend({
      "GET /api/v1/dictation/configuration": () => new Promise((resolve) => (answer = resolve)),
    });
    renderApp("/transaudio");
    await userEvent.click(await screen.findByRole("button", { name: "开始录音" }));
    const recorder = await screen.findByTestId("recorder");
    // not before the server says which live captions it has (Chinese would otherwise be assumed)
    expect(within(recorder).getByTestId("recorder-start")).toHaveTextContent("正在准备录音…");
    expect(navigator.mediaDevices.getUserMedia).not.toHaveBeenCalled();
    answer(LIVE_ZH_MISSING);
    await within(recorder).findByText("录音中");
    // Chinese transcription, no Chinese captions here: off, and why — not Chinese
    expect(screen.getByTestId("live-language")).toHaveValue("off");
    expect(screen.getByTestId("live-language")).toBeDisabled();
    expect(within(recorder).getByTestId("live-zh-unavailable")).toHaveTextContent("中文实时字幕");
  });

  it("captions start in English when English is the transcription language", async () => {
    stubRecorder();
    rememberLanguage("en"); // the user's last choice
    signedInBackend({ "GET /api/v1/dictation/configuration": () => LIVE_ZH_MISSING });
    renderApp("/transaudio");
    await userEvent.click(await screen.findByRole("button", { name: "开始录音" }));
    const recorder = await screen.findByTestId("recorder");
    await within(recorder).findByText("录音中");
    expect(within(screen.getByTestId("transcribe-options")).getByRole("radio", { name: /英文/ })).toBeChecked();
    expect(screen.getByTestId("live-language")).toHaveValue("en");
  });
});
