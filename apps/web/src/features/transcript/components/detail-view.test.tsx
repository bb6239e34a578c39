import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { envelopeError, signInCookies } from "@/testing/fake-api.ts";
import { record, signedInBackend } from "@/testing/records-fixtures.ts";
import { renderApp } from "@/testing/render.tsx";

const SEGMENTS = [
  { spkName: "说话人1", startTime: 0, endTime: 4000, text: "大家好，今天开会讨论预算。" },
  { spkName: "说话人2", startTime: 4000, endTime: 9000, text: "好的，预算已经准备好了。" },
  { spkName: "说话人1", startTime: 9500, endTime: 12000, text: "预算需要再看一遍。" },
  { spkName: "说话人3", startTime: 12000, endTime: 15000, text: "Budget is fine." },
];

function backend(routes: Parameters<typeof signedInBackend>[0] = {}, over: Record<string, unknown> = {}) {
  return signedInBackend({
    "GET /api/v3/audio/record/get_record_by_id": () => record({ fileId: 1, ...over }),
    "GET /api/v2/audio/text/get_text": () => ({
      fileId: 1,
      fileName: "录音1.mp3",
      updateTime: 1_735_787_045,
      timeLen: 15,
      language: "zh",
      asrResult: JSON.stringify(SEGMENTS),
      abstracts: "",
      audio: null,
    }),
    "POST /text/update_para": () => null,
    ...routes,
  });
}

// the first test also loads the lazy /detail chunk: slow on a busy machine
const segments = () => screen.findAllByTestId("segment", {}, { timeout: 10_000 });
const speakerButtons = (name: string) => screen.getAllByRole("button", { name });
const headOf = () => screen.getByTestId("detail-title").closest(".detail-head") as HTMLElement;

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => {
  cleanup(); // unmount before the fake backend goes: the app keeps loading in the background
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("/detail transcript", () => {
  it("lists segments with avatar (a default label's number, 3 gradients by speaker), name, mm:ss and text", async () => {
    backend();
    renderApp("/detail?fileId=1&timeLen=15&fileName=录音1.mp3");
    const items = await segments();
    expect(items).toHaveLength(4);
    expect(screen.getByTestId("detail-title")).toHaveTextContent("录音1.mp3");
    const avatars = screen.getAllByTestId("avatar");
    expect(avatars.map((a) => a.textContent)).toEqual(["1", "2", "1", "3"]);
    expect(avatars.map((a) => a.className.match(/gradient-\d/)?.[0])).toEqual([
      "gradient-0",
      "gradient-1",
      "gradient-0",
      "gradient-2",
    ]);
    expect(items[1]).toHaveTextContent("说话人2");
    expect(items[1]).toHaveTextContent("00:04");
    expect(items[3]).toHaveTextContent("Budget is fine.");
    const player = screen.getByTestId("player");
    expect(player.tagName).toBe("AUDIO");
    expect(player).toHaveAttribute("src", "/voice_yuelu/api/v3/audio/download?fileId=1&inline=1");
  });

  /** /detail of a transcript whose get_text says what the speech front end did (`audio`) */
  const showDetailWithAudio = (fileName: string, audio: object) => {
    backend({
      "GET /api/v2/audio/text/get_text": () => ({
        fileId: 1,
        fileName,
        updateTime: 1_735_787_045,
        timeLen: 15,
        language: "zh",
        asrResult: JSON.stringify(SEGMENTS),
        abstracts: "",
        audio,
      }),
    });
    renderApp("/detail?fileId=1");
  };

  it("says what the front end did to a noisy phone call (and nothing for a clean recording)", async () => {
    const audio = {
      denoised: true,
      noise: "pink",
      dereverberated: false,
      narrowBand: true,
      gainDb: 12.4,
      snrDb: 6.2,
      bandwidthHz: 3400,
      rt60Ms: 180,
    };
    showDetailWithAudio("电话.mp3", audio);
    await segments();
    const notes = screen.getByTestId("audio-notes");
    expect(notes).toHaveTextContent("已降噪（粉红噪声） · 窄带（电话）音频 · 音量已提升 12 dB");
    expect(notes).toHaveAttribute("title", "估计信噪比 6 dB");
    cleanup();
    backend();
    renderApp("/detail?fileId=1");
    await segments();
    expect(screen.queryByTestId("audio-notes")).toBeNull();
  });

  it("says when reverberation was reduced, with the estimated reverberation time", async () => {
    const audio = {
      denoised: false,
      dereverberated: true,
      narrowBand: false,
      gainDb: 0,
      snrDb: 31,
      bandwidthHz: 7900,
      rt60Ms: 352,
    };
    showDetailWithAudio("礼堂讲座.m4a", audio);
    await segments();
    const notes = screen.getByTestId("audio-notes");
    expect(notes).toHaveTextContent("已减弱混响");
    expect(notes).toHaveAttribute("title", "估计信噪比 31 dB · 估计混响时间 0.35 秒");
  });

  it("plays mp4 and other video containers in a <video>", async () => {
    backend({}, { fileName: "会议.mp4", format: "mp4" });
    renderApp("/detail?fileId=1");
    await segments();
    expect(screen.getByTestId("player").tagName).toBe("VIDEO");
  });

  it("highlights the segment under the playhead, and a click on a time seeks there", async () => {
    backend();
    renderApp("/detail?fileId=1");
    const items = await segments();
    const player = screen.getByTestId("player") as HTMLMediaElement;
    player.currentTime = 10;
    fireEvent.timeUpdate(player);
    await waitFor(() => expect(items[2]).toHaveAttribute("aria-current", "true"));
    expect(items.filter((i) => i.getAttribute("aria-current"))).toHaveLength(1);
    player.currentTime = 9.2; // the pause between two segments
    fireEvent.timeUpdate(player);
    await waitFor(() => expect(items.some((i) => i.getAttribute("aria-current"))).toBe(false));

    await userEvent.click(screen.getByRole("button", { name: "从 00:12 播放" }));
    expect(player.currentTime).toBe(12);
    await waitFor(() => expect(items[3]).toHaveAttribute("aria-current", "true"));
  });

  it("speaker rename: empty or unchanged closes, symbols refused, 10 at most, renameAll sent", async () => {
    const api = backend();
    renderApp("/detail?fileId=1");
    await segments();
    const open = async () => {
      await userEvent.click(speakerButtons("说话人1")[0]!);
      return within(await screen.findByTestId("speaker-popover"));
    };
    const closed = () => waitFor(() => expect(screen.queryByTestId("speaker-popover")).toBeNull());

    let pop = await open();
    const input = pop.getByPlaceholderText("请输入说话人名称");
    expect(input).toHaveAttribute("maxLength", "10");
    await userEvent.click(pop.getByTestId("speaker-confirm"));
    await closed();

    pop = await open();
    await userEvent.type(pop.getByRole("textbox"), "说话人1");
    await userEvent.click(pop.getByTestId("speaker-confirm"));
    await closed();

    pop = await open();
    for (const bad of ["张 三", "a!b", "名字。"]) {
      await userEvent.clear(pop.getByRole("textbox"));
      await userEvent.type(pop.getByRole("textbox"), bad);
      await userEvent.click(pop.getByTestId("speaker-confirm"));
      expect(pop.getByRole("alert")).toHaveTextContent("仅支持中文、英文和数字");
    }
    await userEvent.clear(pop.getByRole("textbox"));
    await userEvent.type(pop.getByRole("textbox"), "abcdefghijkl");
    expect(pop.getByRole("textbox")).toHaveValue("abcdefghij");
    expect(api.callsTo("/update_para")).toHaveLength(0);

    await userEvent.clear(pop.getByRole("textbox"));
    await userEvent.type(pop.getByRole("textbox"), "张三");
    await userEvent.click(pop.getByRole("checkbox", { name: "同时修改全部「说话人1」" }));
    await userEvent.click(pop.getByTestId("speaker-confirm"));
    await closed();
    expect(api.callsTo("/update_para")[0]!.body).toEqual({ fileId: 1, index: 0, spkName: "张三", renameAll: true });
    expect(speakerButtons("张三")).toHaveLength(2);
    expect(screen.getAllByRole("button", { name: "说话人2" })).toHaveLength(1);

    // without the checkbox only that segment changes
    await userEvent.click(speakerButtons("说话人2")[0]!);
    pop = within(await screen.findByTestId("speaker-popover"));
    await userEvent.type(pop.getByRole("textbox"), "Li4");
    await userEvent.click(pop.getByTestId("speaker-confirm"));
    await closed();
    expect(api.callsTo("/update_para")[1]!.body).toEqual({ fileId: 1, index: 1, spkName: "Li4", renameAll: false });
  });

  it("edits a line in place and saves it on blur with update_para", async () => {
    const api = backend();
    renderApp("/detail?fileId=1");
    const items = await segments();
    // the line's ✎ button edits it (a click on the text plays from there)
    await userEvent.click(within(items[1]!).getByRole("button", { name: "修改第 2 段" }));
    const box = within(items[1]!).getByRole("textbox", { name: "修改第 2 段" });
    await userEvent.clear(box);
    await userEvent.type(box, "好的，预算表已经发给大家。");
    await userEvent.tab();
    await waitFor(() => expect(api.callsTo("/update_para")).toHaveLength(1));
    expect(api.callsTo("/update_para")[0]!.body).toEqual({ fileId: 1, index: 1, text: "好的，预算表已经发给大家。" });
    expect(await within(items[1]!).findByTestId("segment-text")).toHaveTextContent("好的，预算表已经发给大家。");

    // Escape drops an edit without saving (a double-click edits too)
    await userEvent.dblClick(within(items[2]!).getByTestId("segment-text"));
    await userEvent.type(within(items[2]!).getByRole("textbox"), "不要");
    await userEvent.keyboard("{Escape}");
    expect(within(items[2]!).getByTestId("segment-text")).toHaveTextContent("预算需要再看一遍。");
    expect(api.callsTo("/update_para")).toHaveLength(1);
  });

  it("searches the transcript: marks every match, walks them with next/previous", async () => {
    backend();
    renderApp("/detail?fileId=1");
    await segments();
    await userEvent.type(screen.getByRole("searchbox", { name: "在文稿中搜索" }), "预算");
    await waitFor(() => expect(screen.getByTestId("match-count")).toHaveTextContent("1 / 3"));
    const marks = () => [...document.querySelectorAll("mark")];
    expect(marks().map((m) => m.textContent)).toEqual(["预算", "预算", "预算"]);
    expect(marks()[0]).toHaveClass("current");
    await userEvent.click(screen.getByRole("button", { name: "下一个" }));
    expect(screen.getByTestId("match-count")).toHaveTextContent("2 / 3");
    expect(marks()[1]).toHaveClass("current");
    await userEvent.click(screen.getByRole("button", { name: "上一个" }));
    await userEvent.click(screen.getByRole("button", { name: "上一个" }));
    expect(screen.getByTestId("match-count")).toHaveTextContent("3 / 3");
    await userEvent.type(screen.getByRole("searchbox"), "{Enter}");
    expect(screen.getByTestId("match-count")).toHaveTextContent("1 / 3");

    await userEvent.clear(screen.getByRole("searchbox"));
    await userEvent.type(screen.getByRole("searchbox"), "BUDGET");
    await waitFor(() => expect(screen.getByTestId("match-count")).toHaveTextContent("1 / 1"));
    await userEvent.type(screen.getByRole("searchbox"), "x");
    await waitFor(() => expect(screen.getByTestId("match-count")).toHaveTextContent("无结果"));
  });

  it("generates, edits and saves the summary", async () => {
    const api = backend({
      "POST /text/update_abstracts": (call) => {
        const b = call.body as { abstracts?: string };
        return { abstracts: b.abstracts ?? "今天开会讨论预算。" };
      },
    });
    renderApp("/detail?fileId=1");
    await segments();
    await userEvent.click(screen.getByRole("button", { name: "生成摘要" }));
    const box = screen.getByRole("textbox", { name: "摘要" });
    await waitFor(() => expect(box).toHaveValue("今天开会讨论预算。"));
    expect(api.callsTo("/update_abstracts")[0]!.body).toEqual({ fileId: 1, requestId: expect.any(String) });
    await userEvent.type(box, "下周再议。");
    await userEvent.click(screen.getByRole("button", { name: "保存摘要" }));
    await waitFor(() =>
      expect(api.callsTo("/update_abstracts")[1]!.body).toEqual({
        fileId: 1,
        abstracts: "今天开会讨论预算。下周再议。",
      }),
    );
  });

  it("exports Word as a blob download named after the record; an empty file is refused", async () => {
    let empty = false;
    const api = backend({
      "GET /api/v3/audio/text/export_word": () =>
        new Response(empty ? new Blob([]) : new Blob(["PK docx"]), {
          headers: { "content-type": "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
        }),
    });
    const created = vi.spyOn(URL, "createObjectURL").mockImplementation(() => "blob:x");
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    renderApp("/detail?fileId=1");
    await segments();
    await userEvent.click(screen.getByTestId("export-menu"));
    await userEvent.click(await screen.findByRole("button", { name: "Word 文档" }));
    await waitFor(() => expect(clicks).toEqual(["录音1.docx"]));
    expect(api.callsTo("/export_word")[0]!.url.searchParams.get("fileId")).toBe("1");
    expect((created.mock.calls[0]![0] as Blob).size).toBeGreaterThan(0);

    empty = true;
    await userEvent.click(screen.getByTestId("export-menu"));
    await userEvent.click(await screen.findByRole("button", { name: "Word 文档" }));
    expect(await screen.findByText("下载失败：文件为空")).toBeInTheDocument();
    expect(clicks).toHaveLength(1);
  });
});

describe("/detail export choices and link", () => {
  it("sends the speaker/time choices with TXT exports and remembers them", async () => {
    const api = backend({
      "GET /api/v3/audio/text/export_txt": () =>
        new Response(new Blob(["text"]), { headers: { "content-type": "text/plain" } }),
    });
    vi.spyOn(URL, "createObjectURL").mockImplementation(() => "blob:x");
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    renderApp("/detail?fileId=1");
    await segments();
    await userEvent.click(screen.getByTestId("export-menu"));
    const speaker = await screen.findByRole("checkbox", { name: "包含说话人" });
    expect(speaker).toBeChecked();
    await userEvent.click(speaker);
    await userEvent.click(screen.getByRole("button", { name: "TXT 文本" }));
    await waitFor(() => expect(api.callsTo("/export_txt")).toHaveLength(1));
    const params = api.callsTo("/export_txt")[0]!.url.searchParams;
    expect([params.get("withSpeaker"), params.get("withTime")]).toEqual(["0", "1"]);
    expect(JSON.parse(localStorage.getItem("yuelu_export_options") ?? "{}")).toEqual({
      withSpeaker: false,
      withTime: true,
    });
    await userEvent.click(screen.getByTestId("export-menu"));
    expect(await screen.findByRole("checkbox", { name: "包含说话人" })).not.toBeChecked();
    localStorage.removeItem("yuelu_export_options");
  });

  it("shares the record: the dialog makes a link (once per click), copies it, lists and revokes links", async () => {
    const link = (over: Record<string, unknown>) => ({
      id: 1,
      fileId: 1,
      url: "http://localhost/s/AAAA",
      withAudio: true,
      hasPassword: false,
      expireDays: 7,
      expireTime: 1_900_000_000,
      createTime: 1_800_000_000,
      viewCount: 0,
      lastViewTime: 0,
      state: "active",
      ...over,
    });
    let list: ReturnType<typeof link>[] = [];
    let release: () => void = () => {};
    const api = backend({
      "GET /api/v1/share/list": () => ({ list }),
      "POST /api/v1/share/create": async (call) => {
        // held until the test lets it go, so a second click lands while the first is in flight
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        const body = call.body as { expireDays: number; withAudio: boolean; password?: string };
        const made = link({
          id: 2,
          url: "http://localhost/s/BBBB",
          expireDays: body.expireDays,
          expireTime: body.expireDays === 0 ? 0 : 1_900_000_000,
          withAudio: body.withAudio,
          hasPassword: Boolean(body.password),
        });
        list = [made, ...list];
        return made;
      },
      "POST /api/v1/share/revoke": (call) => {
        const { id } = call.body as { id: number };
        list = list.filter((l) => l.id !== id);
        return { id };
      },
    });
    list = [link({ viewCount: 5 })];
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    renderApp("/detail?fileId=1");
    // the detail route loads lazily: a cold start on a busy machine takes longer than findAll's 1 s
    await screen.findAllByTestId("segment", {}, { timeout: 10_000 });
    // Share is its own button in the header, not inside Export (issue 43)
    await userEvent.click(within(headOf()).getByRole("button", { name: "分享" }));
    const dialog = await screen.findByTestId("share-dialog");
    // the existing link: expiry, views, password and audio
    const existing = await within(dialog).findByTestId("share-link-1");
    expect(existing).toHaveTextContent("浏览 5 次");
    expect(existing).toHaveTextContent("无密码");
    expect(existing).toHaveTextContent("含音频");

    // a too-short password is refused before any call
    await userEvent.type(within(dialog).getByTestId("share-password"), "abc");
    expect(within(dialog).getByText("密码为 4–64 个字符")).toBeInTheDocument();
    expect(within(dialog).getByTestId("share-create")).toBeDisabled();
    await userEvent.type(within(dialog).getByTestId("share-password"), "d");
    await userEvent.click(within(dialog).getByTestId("share-expiry-0"));
    await userEvent.click(within(dialog).getByTestId("share-with-audio"));
    const create = within(dialog).getByTestId("share-create");
    fireEvent.click(create);
    fireEvent.click(create);
    await waitFor(() => expect(api.callsTo("/share/create")).toHaveLength(1));
    release();
    expect(await within(dialog).findByTestId("share-new-url")).toHaveTextContent("http://localhost/s/BBBB");
    expect(api.callsTo("/share/create")).toHaveLength(1);
    expect(api.callsTo("/share/create")[0]!.body).toEqual({
      fileId: 1,
      expireDays: 0,
      withAudio: false,
      password: "abcd",
    });
    await userEvent.click(within(dialog).getByTestId("share-copy"));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith("http://localhost/s/BBBB"));
    const made = await within(dialog).findByTestId("share-link-2");
    expect(made).toHaveTextContent("永久有效");
    expect(made).toHaveTextContent("有密码");
    expect(made).toHaveTextContent("无音频");

    // revoke, confirmed
    await userEvent.click(within(dialog).getByTestId("share-revoke-1"));
    await userEvent.click(await screen.findByRole("button", { name: "撤销" }));
    await waitFor(() => expect(screen.queryByTestId("share-link-1")).toBeNull());
    expect(api.callsTo("/share/revoke")[0]!.body).toEqual({ id: 1 });
  });

  it("the share dialog says when there are no links, and when they cannot be loaded", async () => {
    let fail = true;
    backend({
      "GET /api/v1/share/list": () => (fail ? envelopeError(99999, "系统错误") : { list: [] }),
    });
    renderApp("/detail?fileId=1");
    // the detail route loads lazily: a cold start on a busy machine takes longer than findAll's 1 s
    await screen.findAllByTestId("segment", {}, { timeout: 10_000 });
    // Share is its own button in the header, not inside Export (issue 43)
    await userEvent.click(within(headOf()).getByRole("button", { name: "分享" }));
    expect(await screen.findByText("链接列表加载失败")).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "重试" }));
    expect(await screen.findByText("还没有分享链接")).toBeInTheDocument();
  });
});

describe("/detail states", () => {
  it("not found (30001), without a toast", async () => {
    backend({ "GET /api/v3/audio/record/get_record_by_id": () => envelopeError(30001, "记录不存在") });
    renderApp("/detail?fileId=404");
    expect(await screen.findByText("记录不存在或已被删除")).toBeInTheDocument();
    expect(screen.queryByText("记录不存在")).toBeNull();
  });

  it("not found for a missing or malformed fileId, without calling the API", async () => {
    const api = backend();
    renderApp("/detail?fileId=abc");
    expect(await screen.findByText("记录不存在或已被删除")).toBeInTheDocument();
    expect(api.callsTo("/get_record_by_id")).toHaveLength(0);
  });

  it("not transcribed yet: offers transcription", async () => {
    const api = backend(
      {
        "POST /api/v2/dictation/audio/dictation_batch": () => ({
          tasks: [{ fileId: 1, taskId: 3, fileStatus: 3, code: 1 }],
        }),
      },
      { fileStatus: 0, progress: 0 },
    );
    renderApp("/detail?fileId=1");
    expect(await screen.findByText("这条记录还没有转写")).toBeInTheDocument();
    expect(api.callsTo("/get_text")).toHaveLength(0);
    await userEvent.click(screen.getByTestId("detail-transcribe"));
    await userEvent.click(await screen.findByTestId("confirm-transcribe"));
    await waitFor(() => expect(api.callsTo("/dictation_batch")).toHaveLength(1));
    expect((api.callsTo("/dictation_batch")[0]!.body as { fileIds: string }).fileIds).toBe("1");
  });

  it("transcribing: shows the polled progress", async () => {
    backend(
      { "GET /api/v1/dictation/progress/get_progress": () => [{ fileId: 1, fileStatus: 1, progress: 60 }] },
      { fileStatus: 1, progress: 20 },
    );
    renderApp("/detail?fileId=1");
    expect(await screen.findByText("正在转写，已完成 60%")).toBeInTheDocument();
  });

  it("transcribing: the player plays at once and the text recognised so far grows under it, then the transcript", async () => {
    let partial: { startTime: number; endTime: number; text: string }[] = [];
    let status = 1;
    const api = backend({
      "GET /api/v1/dictation/progress/get_progress": () => [{ fileId: 1, fileStatus: status, progress: 40 }],
      "GET /api/v1/dictation/partial": () => ({
        fileId: 1,
        fileStatus: status,
        progress: 40,
        segments: status === 1 ? partial : [],
        upToMs: partial.at(-1)?.endTime ?? 0,
      }),
      "GET /api/v3/audio/record/get_record_by_id": () => record({ fileId: 1, fileStatus: status, progress: 40 }),
    });
    renderApp("/detail?fileId=1");
    const view = await screen.findByTestId("detail-transcribing", {}, { timeout: 10_000 });
    // the recording plays while it transcribes
    const player = within(view).getByTestId("player");
    expect(player).toHaveAttribute("src", "/voice_yuelu/api/v3/audio/download?fileId=1&inline=1");
    expect(within(view).getByTestId("partial-marker")).toHaveTextContent("转写中…");
    expect(await within(view).findByText("正在识别，文字会陆续出现在这里…")).toBeInTheDocument();
    expect(api.callsTo("/dictation/partial")[0]!.url.searchParams.get("fileId")).toBe("1");
    // no Share before there is a transcript to share
    expect(within(headOf()).queryByRole("button", { name: "分享" })).toBeNull();

    // the worker's first checkpoint: read-only text, a time that plays from there
    partial = [
      { startTime: 0, endTime: 4000, text: "大家好，今天开会讨论预算。" },
      { startTime: 65_000, endTime: 69_000, text: "预算已经准备好了。" },
    ];
    const lines = await within(view).findAllByTestId("partial-segment", {}, { timeout: 8000 });
    expect(lines.map((l) => l.textContent)).toEqual(["00:00大家好，今天开会讨论预算。", "01:05预算已经准备好了。"]);
    expect(within(view).queryByRole("textbox")).toBeNull();
    const play = vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(async () => {});
    await userEvent.click(within(lines[1]!).getByRole("button", { name: "从 01:05 播放" }));
    expect((player as HTMLMediaElement).currentTime).toBe(65);
    expect(play).toHaveBeenCalled();

    // done: the finished transcript (speakers, editable) in place of the partial text
    status = 2;
    expect(await screen.findAllByTestId("segment", {}, { timeout: 8000 })).toHaveLength(4);
    expect(screen.queryByTestId("partial-transcript")).toBeNull();
    expect(within(headOf()).getByRole("button", { name: "分享" })).toBeInTheDocument();
  });

  it("in queue: the player is there at once, no partial text is asked for yet", async () => {
    const api = backend(
      { "GET /api/v1/dictation/progress/get_progress": () => [{ fileId: 1, fileStatus: 3, progress: 0 }] },
      { fileStatus: 3, progress: 0 },
    );
    renderApp("/detail?fileId=1");
    const view = await screen.findByTestId("detail-transcribing", {}, { timeout: 10_000 });
    expect(within(view).getByTestId("player")).toBeInTheDocument();
    expect(await within(view).findByText("排队中，马上开始转写…")).toBeInTheDocument();
    expect(screen.queryByTestId("partial-transcript")).toBeNull();
    expect(api.callsTo("/dictation/partial")).toHaveLength(0);
  });

  it("failed: shows the reason and offers to transcribe again", async () => {
    backend(
      {
        "GET /api/v1/dictation/progress/get_progress": () => [
          { fileId: 1, fileStatus: -1, progress: 0, errorCode: 70001, errorMsg: "中文识别引擎未安装" },
        ],
      },
      { fileStatus: -1, progress: 0 },
    );
    renderApp("/detail?fileId=1");
    expect(await screen.findByText("转写失败")).toBeInTheDocument();
    expect(await screen.findByText("原因：中文识别引擎未安装")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "重新转写" })).toBeInTheDocument();
  });
});
