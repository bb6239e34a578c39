import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { signInCookies } from "@/testing/fake-api.ts";
import { FakeXhr, installFakeXhr } from "@/testing/fake-xhr.ts";
import { signedInBackend } from "@/testing/records-fixtures.ts";
import { renderApp } from "@/testing/render.tsx";
import { uploads } from "../hooks/upload-store.ts";

const MiB = 1024 * 1024;

function file(name: string, size: number, type = "audio/mpeg") {
  const f = new File(["x"], name, { type });
  Object.defineProperty(f, "size", { value: size });
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

beforeEach(() => {
  setLang("zh");
  signInCookies();
  installFakeXhr();
});
afterEach(() => {
  cleanup(); // unmount before the fake backend goes: the app keeps loading in the background
  window.history.replaceState(null, "", "/");
  uploads.reset();
  vi.unstubAllGlobals();
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

  it("uploads into the chosen folder (menuId in the query and before the file)", async () => {
    signedInBackend({ "GET /api/v2/menu/sound_list": () => [{ menuId: "5", menuName: "会议" }] });
    renderApp("/transaudio");
    await userEvent.selectOptions(await screen.findByRole("combobox", { name: "上传到文件夹" }), "5");
    await choose([file("a.mp3", 10)]);
    const xhr = await sent();
    expect(xhr.query.get("menuId")).toBe("5");
    expect([...xhr.body!.keys()]).toEqual(["uploadId", "menuId", "file"]);
  });

  it("shows bytes and percent while sending, then the options; transcription starts and is followed to the link", async () => {
    let polls = 0;
    const api = signedInBackend({
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

    const xhr = await sent();
    expect(xhr.method).toBe("POST");
    expect(new URL(xhr.url, location.origin).pathname).toBe("/voice_yuelu/api/v1/audio/upload");
    expect(xhr.query.get("timeStamp")).toMatch(/^\d+$/);
    const uploadId = xhr.query.get("uploadId")!;
    expect(uploadId).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(xhr.headers).toMatchObject({ source: "0", lang: "zh", key: "abc" });
    expect((xhr.body!.get("file") as File).name).toBe("周会.mp3");
    expect(xhr.body!.get("uploadId")).toBe(uploadId);

    xhr.progress(MiB, 2 * MiB);
    const bar = await screen.findByRole("progressbar", { name: "周会.mp3 上传进度" });
    expect(bar).toHaveAttribute("aria-valuenow", "50");
    expect(screen.getByTestId("upload-bytes")).toHaveTextContent("1.0MB / 2.0MB · 50%");
    xhr.progress(1.5 * MiB, 2 * MiB);
    await waitFor(() => expect(bar).toHaveAttribute("aria-valuenow", "75"));

    xhr.respond(uploaded);
    expect(await screen.findByText("上传完成")).toBeInTheDocument();
    const options = await screen.findByTestId("transcribe-options");
    // zh and auto have no engine here: disabled, with the server's reason; en is preselected.
    expect(within(options).getByRole("radio", { name: /中文/ })).toBeDisabled();
    expect(within(options).getByTestId("missing-zh")).toHaveTextContent("不可用：WHISPER_MODEL 未配置");
    await waitFor(() => expect(within(options).getByRole("radio", { name: /英文/ })).toBeChecked());
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

  it("cancels, retries with the same uploadId, and shows a server refusal with retry", async () => {
    signedInBackend({});
    renderApp("/transaudio");
    await choose([file("talk.m4a", 4 * MiB)]);
    const first = await sent();
    await userEvent.click(await screen.findByRole("button", { name: "取消" }));
    expect(first.aborted).toBe(true);
    expect(await screen.findByText("已取消")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "重试" }));
    const second = await sent(1);
    expect(second.query.get("uploadId")).toBe(first.query.get("uploadId"));
    second.respond(null, 20004, 200, "文件内容不是音视频");
    expect(await screen.findByText("上传失败")).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("文件内容不是音视频");

    await userEvent.click(screen.getByRole("button", { name: "重试" }));
    const third = await sent(2);
    third.respondRaw(413, "too large");
    expect(await screen.findByText("文件太大，单个文件不能超过 1 GB")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "重试" }));
    (await sent(3)).fail();
    expect(await screen.findByText("网络异常，请检查网络后重试")).toBeInTheDocument();
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
    await userEvent.click(await screen.findByRole("button", { name: "开始录音" }));
    // the browser's own WebM is recorded as it is: no notice about relabelling it
    await userEvent.click(await screen.findByTestId("recorder-start"));
    expect(screen.queryByText(/Matroska|\.mkv/)).toBeNull();
    expect(await screen.findByTestId("recorder-error")).toHaveTextContent("麦克风权限被拒绝");
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
    expect((xhr.body!.get("file") as File).name).toBe("short.mp3");
    expect(FakeXhr.instances).toHaveLength(1);
  });

  it("says at once that a 4-hour file cannot be transcribed, and does not offer it", async () => {
    signedInBackend({});
    uploads.setDurationReader(async () => 4 * HOUR);
    renderApp("/transaudio");
    await choose([file("会议.mp3", 40 * MiB)]);
    // before the upload has finished: the browser's reading is enough
    expect(await screen.findByTestId("upload-too-long")).toHaveTextContent(
      "时长 4 小时，超过单个文件 3 小时的转写上限",
    );
    const xhr = await sent();
    xhr.respond({ ...uploaded, fileName: "会议.mp3", timeLen: 4 * HOUR });
    expect(await screen.findByText("上传完成")).toBeInTheDocument();
    expect(screen.queryByTestId("start-transcription")).toBeNull();
  });

  it("when the browser cannot read the length, says so right after the upload from the server's timeLen", async () => {
    signedInBackend({});
    renderApp("/transaudio");
    await choose([file("录音.amr", 8 * MiB)]);
    const xhr = await sent();
    expect(screen.queryByTestId("upload-too-long")).toBeNull();
    xhr.respond({ ...uploaded, fileName: "录音.amr", format: "amr", timeLen: 3 * HOUR + 5 });
    expect(await screen.findByTestId("upload-too-long")).toHaveTextContent("超过单个文件 3 小时的转写上限");
    expect(screen.queryByTestId("start-transcription")).toBeNull();
  });

  it("a file of exactly 3 hours is offered for transcription", async () => {
    signedInBackend({});
    uploads.setDurationReader(async () => 3 * HOUR);
    renderApp("/transaudio");
    await choose([file("three.mp3", 40 * MiB)]);
    (await sent()).respond({ ...uploaded, timeLen: 3 * HOUR });
    expect(await screen.findByTestId("start-transcription")).toBeInTheDocument();
    expect(screen.queryByTestId("upload-too-long")).toBeNull();
  });
});
