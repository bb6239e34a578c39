import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { TtsWork } from "@yuelu/contracts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { type FakeCall, signInCookies } from "@/testing/fake-api.ts";
import { stubMedia } from "@/testing/media.ts";
import { signedInBackend } from "@/testing/records-fixtures.ts";
import { renderApp } from "@/testing/render.tsx";
import { selectOptions, task, voice, work } from "../testing/fixtures.ts";

type Routes = Record<string, (call: FakeCall) => unknown>;

function studio(routes: Routes = {}) {
  return signedInBackend({
    "GET /new_tts/labs/select_options": () => selectOptions,
    "GET /new_tts/labs/get_sound_list": () => ({ total: 2, list: [voice(1), voice(2)] }),
    "GET /tts/quota": () => ({ charsUsedToday: 120, charsLimitToday: 20000, maxChars: 5000, member: false }),
    "GET /tts/task_list": () => ({ total: 0, list: [] }),
    ...routes,
  });
}

const textBox = () => screen.findByTestId("tts-text");

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("/textToVoice (where /text-to-speech redirects)", () => {
  it("counts characters as the server does and refuses more than 5 000 before sending", async () => {
    const api = studio({ "POST /tts/start_tts": () => task(9, "x") });
    renderApp("/textToVoice");
    const box = await textBox();
    await userEvent.type(box, "  你好，世界😀 ");
    expect(screen.getByTestId("char-count")).toHaveTextContent("6 / 5,000");

    fireEvent.change(box, { target: { value: "字".repeat(5000) } });
    expect(screen.getByTestId("char-count")).toHaveTextContent("5,000 / 5,000");
    expect(screen.queryByTestId("too-long")).toBeNull();

    fireEvent.change(box, { target: { value: "字".repeat(5001) } });
    expect(screen.getByTestId("char-count")).toHaveTextContent("5,001 / 5,000");
    expect(screen.getByTestId("too-long")).toHaveTextContent("文本不能超过 5000 字，请删减后再生成");
    expect(box).toHaveAttribute("aria-invalid", "true");
    await userEvent.click(screen.getByTestId("generate"));
    expect(screen.getByTestId("tts-problem")).toHaveTextContent("文本不能超过 5000 字");
    expect(api.callsTo("/start_tts")).toHaveLength(0);

    fireEvent.change(box, { target: { value: "   " } });
    await userEvent.click(screen.getByTestId("generate"));
    expect(screen.getByTestId("tts-problem")).toHaveTextContent("请输入要转换的文本");
    expect(api.callsTo("/start_tts")).toHaveLength(0);
  });

  it("generates: the settings are sent, progress is polled, then the player and the download", async () => {
    const media = stubMedia();
    let polls = 0;
    const api = studio({
      "POST /tts/start_tts": ({ body }) => task(9, (body as { text: string }).text),
      "GET /tts/get_progress": () => {
        polls += 1;
        if (polls === 1) return [{ taskId: 9, status: 1, progress: 40, durationMs: 0, audioUrl: "", downloadUrl: "" }];
        const done = work(9);
        return [
          {
            taskId: 9,
            status: 2,
            progress: 100,
            durationMs: 1500,
            audioUrl: done.audioUrl,
            downloadUrl: done.downloadUrl,
          },
        ];
      },
    });
    renderApp("/textToVoice");
    await userEvent.type(await textBox(), "今天是2024年3月5日。");
    fireEvent.change(screen.getByTestId("slider-speed"), { target: { value: "1.5" } });
    fireEvent.change(screen.getByTestId("slider-pitch"), { target: { value: "-3" } });
    fireEvent.change(screen.getByTestId("slider-volume"), { target: { value: "0.8" } });
    expect(screen.getByText("1.5 倍")).toBeInTheDocument();
    expect(screen.getByText("-3 半音")).toBeInTheDocument();
    expect(screen.getByText("80%")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("radio", { name: "WAV" }));
    await userEvent.click(screen.getByTestId("generate"));

    await waitFor(() => expect(api.callsTo("/start_tts")).toHaveLength(1));
    expect(api.callsTo("/start_tts")[0]!.body).toEqual({
      text: "今天是2024年3月5日。",
      speed: 1.5,
      pitch: -3,
      volume: 0.8,
      format: "wav",
      source: 0,
    });
    expect(await screen.findByText("正在合成 40%")).toBeInTheDocument();
    expect(screen.getByRole("progressbar", { name: "合成进度" })).toHaveAttribute("aria-valuenow", "40");
    const player = await screen.findByTestId("result-player", {}, { timeout: 4000 });
    expect(api.callsTo("/get_progress")[0]!.url.searchParams.get("taskIds")).toBe("9");
    expect(player.querySelector("audio")).toHaveAttribute("src", "/voice_yuelu/tts/download?taskId=9&inline=1");
    expect(within(player).getByRole("link", { name: "下载「作品9」" })).toHaveAttribute(
      "href",
      "/voice_yuelu/tts/download?taskId=9",
    );
    await userEvent.click(within(player).getByRole("button", { name: "播放「作品9」" }));
    expect(media.played).toHaveLength(1);
    expect(within(player).getByRole("button", { name: "暂停「作品9」" })).toBeInTheDocument();
    // the finished work is fetched again for 'my works' and the quota
    await waitFor(() => expect(api.callsTo("/task_list").length).toBeGreaterThan(1));
  });

  it("shows a failed synthesis with the server's reason and retries it", async () => {
    let starts = 0;
    const api = studio({
      "POST /tts/start_tts": ({ body }) => task(10 + starts++, (body as { text: string }).text),
      "GET /tts/get_progress": ({ url }) => [
        {
          taskId: Number(url.searchParams.get("taskIds")),
          status: -1,
          progress: 0,
          durationMs: 0,
          audioUrl: "",
          downloadUrl: "",
          errorCode: 70001,
          errorMsg: "语音合成引擎不可用：服务器未安装 espeak-ng",
        },
      ],
    });
    renderApp("/textToVoice");
    await userEvent.type(await textBox(), "你好");
    await userEvent.click(screen.getByTestId("generate"));
    const result = await screen.findByTestId("tts-result");
    await waitFor(() => expect(result.dataset.phase).toBe("failed"));
    expect(within(result).getByRole("alert")).toHaveTextContent("服务器未安装 espeak-ng");
    await userEvent.click(within(result).getByRole("button", { name: "重试" }));
    await waitFor(() => expect(api.callsTo("/start_tts")).toHaveLength(2));
  });

  it("my works: play, download, rename and delete (asked first)", async () => {
    stubMedia();
    let works: TtsWork[] = [work(1, { title: "早安问候" }), work(2, { status: 1, progress: 30, title: "长文" })];
    const api = studio({
      "GET /tts/task_list": () => ({ total: works.length, list: works }),
      "POST /tts/rename": ({ body }) => {
        const { taskId, title } = body as { taskId: number; title: string };
        works = works.map((w) => (w.taskId === taskId ? { ...w, title } : w));
        return { ...works[0], text: "" };
      },
      "POST /tts/delete": ({ body }) => {
        const ids = String((body as { taskIds: string }).taskIds)
          .split(",")
          .map(Number);
        works = works.filter((w) => !ids.includes(w.taskId));
        return { taskIds: ids };
      },
    });
    renderApp("/textToVoice");
    const rows = await screen.findAllByTestId("work-row");
    expect(rows).toHaveLength(2);
    const [first, second] = rows as [HTMLElement, HTMLElement];
    expect(within(first).getByTestId("work-status")).toHaveTextContent("已完成");
    expect(within(first).getByRole("link", { name: "下载「早安问候」" })).toHaveAttribute(
      "href",
      "/voice_yuelu/tts/download?taskId=1",
    );
    expect(within(second).getByTestId("work-status")).toHaveTextContent("正在合成 30%");
    expect(within(second).getByTestId("work-play")).toBeDisabled();

    await userEvent.click(within(first).getByRole("button", { name: "播放「早安问候」" }));
    const player = await within(first).findByTestId("work-player");
    expect(player.querySelector("audio")).toHaveAttribute("src", "/voice_yuelu/tts/download?taskId=1&inline=1");

    await userEvent.click(within(first).getByRole("button", { name: "重命名「早安问候」" }));
    const renameDialog = await screen.findByRole("dialog", { name: "重命名作品" });
    const input = within(renameDialog).getByRole("textbox", { name: "作品名称" });
    await userEvent.clear(input);
    await userEvent.type(input, "晚安");
    await userEvent.click(within(renameDialog).getByRole("button", { name: "确定" }));
    await waitFor(() => expect(api.callsTo("/rename")).toHaveLength(1));
    expect(api.callsTo("/rename")[0]!.body).toEqual({ taskId: 1, title: "晚安" });
    expect(await screen.findByText("晚安")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "删除「长文」" }));
    const confirm = await screen.findByRole("dialog", { name: "删除作品" });
    expect(confirm).toHaveTextContent("确定删除「长文」吗？删除后音频无法恢复。");
    expect(api.callsTo("/delete")).toHaveLength(0);
    await userEvent.click(within(confirm).getByTestId("confirm"));
    await waitFor(() => expect(api.callsTo("/delete")).toHaveLength(1));
    expect(api.callsTo("/delete")[0]!.body).toEqual({ taskIds: "2" });
    await waitFor(() => expect(screen.getAllByTestId("work-row")).toHaveLength(1));
  });

  it("says clearly when today's characters are used up, and does not send", async () => {
    const api = studio({
      "GET /tts/quota": () => ({ charsUsedToday: 20000, charsLimitToday: 20000, maxChars: 5000, member: false }),
      "POST /tts/start_tts": () => task(1, "x"),
    });
    renderApp("/textToVoice");
    expect(await screen.findByTestId("quota-exceeded")).toHaveTextContent(
      "今日语音合成字数已用完（每日 20000 字），请明天再来",
    );
    expect(screen.getByTestId("tts-quota")).toHaveTextContent("已用 20,000 / 20,000 字");
    await userEvent.type(screen.getByTestId("tts-text"), "你好");
    expect(screen.getByTestId("generate")).toBeDisabled();
    expect(api.callsTo("/start_tts")).toHaveLength(0);
  });

  it("refuses a text longer than what is left today", async () => {
    const api = studio({
      "GET /tts/quota": () => ({ charsUsedToday: 19998, charsLimitToday: 20000, maxChars: 5000, member: false }),
    });
    renderApp("/textToVoice");
    await screen.findByTestId("tts-quota");
    await userEvent.type(await textBox(), "你好世界");
    await userEvent.click(screen.getByTestId("generate"));
    expect(screen.getByTestId("tts-problem")).toHaveTextContent("本次文本 4 字，超过今日剩余的 2 字");
    expect(api.callsTo("/start_tts")).toHaveLength(0);
  });

  it("shows the server's refusal (50003) beside the button", async () => {
    studio({
      "POST /tts/start_tts": () =>
        new Response(
          JSON.stringify({
            status_code: 50003,
            status_msg: "今日语音合成字数已用完（每日 20000 字），请明天再来",
            data: null,
          }),
          { headers: { "content-type": "application/json" } },
        ),
    });
    renderApp("/textToVoice");
    await userEvent.type(await textBox(), "你好");
    await userEvent.click(screen.getByTestId("generate"));
    expect(await screen.findByTestId("tts-problem")).toHaveTextContent("今日语音合成字数已用完");
  });

  it("picks a voice from the library in a dialog, and back to the default", async () => {
    const api = studio({ "POST /tts/start_tts": () => task(3, "x") });
    renderApp("/textToVoice");
    expect(await screen.findByTestId("voice-name")).toHaveTextContent("默认音色");
    await userEvent.click(screen.getByTestId("choose-voice"));
    const dialog = await screen.findByRole("dialog", { name: "选择音色" });
    await userEvent.click(await within(dialog).findByRole("button", { name: "选择「音色2」" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(screen.getByTestId("voice-name")).toHaveTextContent("音色2");
    // an English voice under Chinese text: said before generating
    await userEvent.type(screen.getByTestId("tts-text"), "你好");
    expect(screen.getByRole("note")).toHaveTextContent("所选音色只会朗读英文");
    await userEvent.click(screen.getByRole("button", { name: "恢复默认" }));
    expect(screen.getByTestId("voice-name")).toHaveTextContent("默认音色");
    await userEvent.click(screen.getByTestId("generate"));
    await waitFor(() => expect(api.callsTo("/start_tts")).toHaveLength(1));
    expect(api.callsTo("/start_tts")[0]!.body).not.toHaveProperty("promptId");
  });

  it("reads with one of my ready voices (made on /myVoice), sent as myVoiceId", async () => {
    const mine = (voiceId: number, name: string, status: number) => ({
      voiceId,
      name,
      language: "zh",
      method: "match",
      status,
      progress: status === 2 ? 100 : 10,
      sampleSeconds: 20,
      baseVoiceName: "音色1",
      profile: null,
      previewUrl: "",
      sampleUrl: "",
      createTime: 1,
      updateTime: 1,
    });
    const api = studio({
      "GET /voice/my_voice/list": () => ({ total: 2, list: [mine(7, "我的声音", 2), mine(8, "还在分析", 1)] }),
      "POST /tts/start_tts": () => task(5, "x"),
    });
    renderApp("/textToVoice");
    const select = await screen.findByTestId("my-voice-select");
    expect(
      within(select)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["不使用", "我的声音"]);
    await userEvent.selectOptions(select, "7");
    expect(screen.getByTestId("voice-name")).toHaveTextContent("我的声音");
    expect(screen.getByTestId("voice-picker")).toHaveTextContent("我的声音 · 声音匹配");
    await userEvent.type(screen.getByTestId("tts-text"), "你好");
    await userEvent.click(screen.getByTestId("generate"));
    await waitFor(() => expect(api.callsTo("/start_tts")).toHaveLength(1));
    expect(api.callsTo("/start_tts")[0]!.body).toMatchObject({ text: "你好", myVoiceId: 7 });
    expect(api.callsTo("/start_tts")[0]!.body).not.toHaveProperty("promptId");
    // back to the default: neither is sent
    await userEvent.click(screen.getByRole("button", { name: "恢复默认" }));
    expect(screen.getByTestId("voice-name")).toHaveTextContent("默认音色");
  });

  it("asks an anonymous visitor to sign in", async () => {
    document.cookie = "userid=; Max-Age=0; path=/";
    document.cookie = "name=; Max-Age=0; path=/";
    const { refreshSession } = await import("@/lib/session.ts");
    refreshSession();
    studio();
    renderApp("/textToVoice");
    expect(await screen.findByText("登录后查看")).toBeInTheDocument();
    expect(screen.queryByTestId("tts-text")).toBeNull();
  });

  it("lists the songs the voice pages made under 'my works', playable, with a link to where they are managed", async () => {
    const song = (workId: number, kind: "sing" | "convert", status: number) => ({
      workId,
      kind,
      title: `歌曲${workId}`,
      voiceName: "我的声音",
      status,
      progress: status === 2 ? 100 : 40,
      durationMs: 29_000,
      notes: [],
      bpm: 100,
      lyrics: "",
      keyShift: 0,
      tempo: 1,
      semitones: 0,
      audioUrl: status === 2 ? `/voice_yuelu/voice/works/file?workId=${workId}&inline=1` : "",
      downloadUrl: "",
      originalUrl: "",
      createTime: 1,
      updateTime: 1,
    });
    studio({ "GET /voice/works/list": () => ({ total: 2, list: [song(3, "sing", 2), song(4, "convert", 1)] }) });
    renderApp("/textToVoice");
    const songs = await screen.findByTestId("song-works");
    const rows = within(songs).getAllByTestId("song-work");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent("AI帮你唱");
    expect(rows[0]!.querySelector("audio")?.getAttribute("src")).toContain("workId=3");
    expect(rows[1]).toHaveTextContent("歌曲变声");
    expect(rows[1]!.querySelector("audio")).toBeNull();
    expect(within(rows[1]!).getByRole("link", { name: "去管理" })).toHaveAttribute("href", "/song-conversion");
  });

  it("shows no songs section when the voice pages made nothing", async () => {
    studio({ "GET /voice/works/list": () => ({ total: 0, list: [] }) });
    renderApp("/textToVoice");
    await textBox();
    expect(screen.queryByTestId("song-works")).toBeNull();
  });
});
