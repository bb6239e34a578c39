import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { formatDateTime } from "@/lib/format.ts";
import { setLang } from "@/lib/i18n.ts";
import { envelopeError, signInCookies } from "@/testing/fake-api.ts";
import { record, signedInBackend } from "@/testing/records-fixtures.ts";
import { renderApp } from "@/testing/render.tsx";

beforeEach(() => {
  localStorage.clear(); // the last choice of transcription language is remembered there
  setLang("zh");
  signInCookies();
});
afterEach(() => {
  cleanup(); // unmount before the fake backend goes: the app keeps loading in the background
  vi.unstubAllGlobals();
});

const page = (records: unknown[]) => ({ total: records.length, records });
const row = (fileId: number) => screen.findByTestId(`record-${fileId}`);

describe("/audio-list", () => {
  it("shows each record's name, duration, size (1024 steps), time and status label", async () => {
    const api = signedInBackend({
      "GET /api/v3/audio/all_list": () =>
        page([
          record({ fileId: 1, fileStatus: 0, progress: 0 }),
          record({ fileId: 2, fileStatus: 3, progress: 0 }),
          record({ fileId: 3, fileStatus: 1, progress: 30 }),
          record({ fileId: 4, fileStatus: 2 }),
          record({ fileId: 5, fileStatus: -1 }),
        ]),
      "GET /api/v1/dictation/progress/get_progress": () => [
        { fileId: 2, fileStatus: 3, progress: 0 },
        { fileId: 3, fileStatus: 1, progress: 30 },
      ],
    });
    renderApp("/audio-list");
    const labels = await Promise.all(
      [1, 2, 3, 4, 5].map(async (id) => within(await row(id)).getByTestId("record-status")),
    );
    expect(labels.map((l) => l.textContent)).toEqual(["未转写", "排队中", "转写中 30%", "已完成", "失败"]);
    const first = await row(1);
    expect(first).toHaveTextContent("录音1.mp3");
    expect(first).toHaveTextContent("2:05");
    expect(first).toHaveTextContent("1.5MB");
    // the time shown is when it was made, under a header that says so (issue 43), not its updateTime
    expect(first).toHaveTextContent(formatDateTime(1_735_700_645));
    expect(first).not.toHaveTextContent(formatDateTime(1_735_787_045));
    expect(screen.getByRole("columnheader", { name: /创建时间/ })).toBeInTheDocument();
    expect(screen.queryByRole("columnheader", { name: /更新时间/ })).toBeNull();
    expect(within(first).getByRole("link", { name: "录音1.mp3" })).toHaveAttribute(
      "href",
      `/detail?fileId=1&timeLen=125&fileName=${encodeURIComponent("录音1.mp3")}`,
    );
    // transcribe is offered for never-transcribed and failed records only
    expect(within(first).getByRole("button", { name: "转写" })).toBeInTheDocument();
    expect(within(await row(5)).getByRole("button", { name: "转写" })).toBeInTheDocument();
    expect(within(await row(4)).queryByRole("button", { name: "转写" })).toBeNull();
    // spec §5: filters whose value is -1 are not sent
    const q = api.callsTo("/all_list")[0]!.url.searchParams;
    expect(q.get("page")).toBe("1");
    expect(q.get("pageSize")).toBe("20");
    expect(q.has("menuId")).toBe(false);
    expect(q.has("fileStatus")).toBe(false);
    expect(q.has("fileName")).toBe(false);
    // newest first, said to the server
    expect(q.get("sortBy")).toBe("time");
    expect(q.get("order")).toBe("desc");
  });

  it("sorts by name, time and duration on the server from the column headers, each way", async () => {
    const api = signedInBackend({
      "GET /api/v3/audio/all_list": () => page([record({ fileId: 1 }), record({ fileId: 2 })]),
    });
    renderApp("/audio-list");
    await row(1);
    const sortOf = () => {
      const q = api.callsTo("/all_list").at(-1)!.url.searchParams;
      return `${q.get("sortBy")} ${q.get("order")} page ${q.get("page")}`;
    };
    const header = (name: RegExp) => screen.getByRole("columnheader", { name });
    expect(header(/创建时间/)).toHaveAttribute("aria-sort", "descending");
    expect(header(/文件名/)).toHaveAttribute("aria-sort", "none");

    await userEvent.click(screen.getByTestId("sort-name"));
    await waitFor(() => expect(sortOf()).toBe("name asc page 1"));
    expect(header(/文件名/)).toHaveAttribute("aria-sort", "ascending");
    expect(header(/创建时间/)).toHaveAttribute("aria-sort", "none");
    await userEvent.click(screen.getByTestId("sort-name"));
    await waitFor(() => expect(sortOf()).toBe("name desc page 1"));
    // the longest first, then the shortest
    await userEvent.click(screen.getByTestId("sort-duration"));
    await waitFor(() => expect(sortOf()).toBe("duration desc page 1"));
    await userEvent.click(screen.getByTestId("sort-duration"));
    await waitFor(() => expect(sortOf()).toBe("duration asc page 1"));
    // phones have no headers: the same sorts in a select
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "排序" }), "最早创建在前");
    await waitFor(() => expect(sortOf()).toBe("time asc page 1"));
    expect(header(/创建时间/)).toHaveAttribute("aria-sort", "ascending");
  });

  it("has one search box: names in the list, and the transcripts' search one link away", async () => {
    const api = signedInBackend({ "GET /api/v3/audio/all_list": () => page([record({ fileId: 1 })]) });
    renderApp("/audio-list");
    await row(1);
    expect(screen.getAllByRole("searchbox")).toHaveLength(1);
    expect(screen.queryByTestId("search-transcripts")).toBeNull();
    await userEvent.type(screen.getByRole("searchbox", { name: "搜索" }), "独角兽");
    await waitFor(() => expect(api.callsTo("/all_list").at(-1)!.url.searchParams.get("fileName")).toBe("独角兽"));
    const link = screen.getByTestId("search-transcripts");
    expect(link).toHaveTextContent("在文稿中搜索「独角兽」");
    expect(link).toHaveAttribute("href", `/search?q=${encodeURIComponent("独角兽")}`);
  });

  it("downloads the selection as a zip of audio, transcripts or both, saying which have no transcript", async () => {
    signedInBackend({
      "GET /api/v3/audio/all_list": () =>
        page([record({ fileId: 1 }), record({ fileId: 2, fileStatus: 0 }), record({ fileId: 3 })]),
    });
    const followed: string[] = [];
    const follow = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      followed.push(this.href);
    });
    renderApp("/audio-list");
    await row(1);
    await userEvent.click(screen.getByRole("checkbox", { name: "全选本页" }));
    const bar = screen.getByTestId("batch-bar");

    // the audio alone, as before
    await userEvent.click(within(bar).getByRole("button", { name: "打包下载" }));
    let dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent("打包下载 3 条记录");
    expect(within(dialog).getByRole("radio", { name: "音频" })).toBeChecked();
    await userEvent.click(within(dialog).getByTestId("zip-download"));
    let url = new URL(followed.at(-1)!);
    expect(url.pathname).toBe("/voice_yuelu/api/v1/audio/download/batch");
    expect(url.searchParams.get("fileIds")).toBe("1,2,3");
    expect(url.searchParams.has("include")).toBe(false);

    // the transcripts as SubRip: one record was never transcribed, and the dialog says so first
    await userEvent.click(within(bar).getByRole("button", { name: "打包下载" }));
    dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("radio", { name: "文稿" }));
    await userEvent.selectOptions(within(dialog).getByTestId("zip-format"), "SRT 字幕");
    expect(within(dialog).getByTestId("zip-untranscribed")).toHaveTextContent("1 条记录还没有转写");
    await userEvent.click(within(dialog).getByTestId("zip-download"));
    url = new URL(followed.at(-1)!);
    expect(url.searchParams.get("include")).toBe("transcript");
    expect(url.searchParams.get("format")).toBe("srt");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    follow.mockRestore();
  });

  it("updates progress in place while rows are in queue or transcribing, then refetches the page", async () => {
    let polls = 0;
    let listCalls = 0;
    const api = signedInBackend({
      "GET /api/v3/audio/all_list": () => {
        listCalls += 1;
        return page([
          record({ fileId: 2, fileStatus: listCalls > 1 ? 2 : 1, progress: listCalls > 1 ? 100 : 10 }),
          record({ fileId: 3, fileStatus: 3, progress: 0 }),
          record({ fileId: 4, fileStatus: 2 }),
        ]);
      },
      "GET /api/v1/dictation/progress/get_progress": () => {
        polls += 1;
        return polls === 1
          ? [
              { fileId: 2, fileStatus: 1, progress: 55 },
              { fileId: 3, fileStatus: 1, progress: 5 },
            ]
          : [
              { fileId: 2, fileStatus: 2, progress: 100 },
              { fileId: 3, fileStatus: 1, progress: 80 },
            ];
      },
    });
    renderApp("/audio-list");
    expect(await within(await row(2)).findByText("转写中 55%")).toBeInTheDocument();
    expect(within(await row(3)).getByTestId("record-status")).toHaveTextContent("转写中 5%");
    expect(listCalls).toBe(1); // patched in place, the page was not fetched again
    expect(api.callsTo("/get_progress")[0]!.url.searchParams.get("fileIds")).toBe("2,3");

    // the next poll (2 s later) finishes one: it shows, and the page is fetched again
    await waitFor(
      () => expect(within(screen.getByTestId("record-2")).getByTestId("record-status")).toHaveTextContent("已完成"),
      {
        timeout: 5000,
      },
    );
    await waitFor(() => expect(listCalls).toBe(2));
    expect(within(screen.getByTestId("record-3")).getByTestId("record-status")).toHaveTextContent("转写中 80%");
  });

  it("selects all, shows the batch bar, and deletes the selection after confirming", async () => {
    const api = signedInBackend({
      "GET /api/v3/audio/all_list": () => page([record({ fileId: 1 }), record({ fileId: 2 }), record({ fileId: 3 })]),
      "POST /api/v1/audio/record/delete_batch": () => null,
    });
    renderApp("/audio-list");
    await row(1);
    const all = screen.getByRole("checkbox", { name: "全选本页" });
    await userEvent.click(all);
    expect(screen.getByTestId("batch-bar")).toHaveTextContent("已选 3 项");
    for (const id of [1, 2, 3]) expect(within(await row(id)).getByRole("checkbox")).toBeChecked();

    await userEvent.click(screen.getByRole("checkbox", { name: "选择 录音2.mp3" }));
    expect(screen.getByTestId("batch-bar")).toHaveTextContent("已选 2 项");
    expect(all).not.toBeChecked();
    expect((all as HTMLInputElement).indeterminate).toBe(true);

    await userEvent.click(within(screen.getByTestId("batch-bar")).getByRole("button", { name: "删除" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent("将 2 条记录移入回收站？");
    await userEvent.click(within(dialog).getByTestId("confirm"));
    await waitFor(() => expect(api.callsTo("/delete_batch")).toHaveLength(1));
    expect(api.callsTo("/delete_batch")[0]!.body).toEqual({ fileIds: "1,3" });
    await waitFor(() => expect(screen.queryByTestId("batch-bar")).toBeNull());
    expect(api.callsTo("/all_list").length).toBeGreaterThan(1);
  });

  it("batch-transcribes only the records that can be, and shows why a file was refused", async () => {
    const api = signedInBackend({
      "GET /api/v3/audio/all_list": () =>
        page([
          record({ fileId: 1, fileStatus: 0, progress: 0 }),
          record({ fileId: 2, fileStatus: 2 }),
          record({ fileId: 3, fileStatus: -1, progress: 0 }),
        ]),
      "POST /api/v2/dictation/audio/dictation_batch": () => ({
        tasks: [
          { fileId: 1, taskId: 11, fileStatus: 3, code: 1 },
          { fileId: 3, taskId: null, fileStatus: -1, code: 50002, message: "今日转写额度已用完，请明天再来" },
        ],
      }),
    });
    renderApp("/audio-list");
    await row(1);
    await userEvent.click(screen.getByRole("checkbox", { name: "全选本页" }));
    await userEvent.click(within(screen.getByTestId("batch-bar")).getByRole("button", { name: "转写" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent("转写 2 个文件");
    await userEvent.click(await within(dialog).findByTestId("confirm-transcribe"));
    await waitFor(() => expect(api.callsTo("/dictation_batch")).toHaveLength(1));
    expect((api.callsTo("/dictation_batch")[0]!.body as { fileIds: string }).fileIds).toBe("1,3");
    expect(await screen.findByText("今日转写额度已用完，请明天再来")).toBeInTheDocument();
    expect(await screen.findByText("已提交转写")).toBeInTheDocument();
  });

  it("batch: while Chinese downloads nothing is preselected; English is chosen knowingly, for English speech only", async () => {
    const api = signedInBackend({
      "GET /api/v3/audio/all_list": () =>
        page([record({ fileId: 1, fileStatus: 0, progress: 0 }), record({ fileId: 2, fileStatus: 0, progress: 0 })]),
      "GET /api/v1/dictation/configuration": () => ({
        languages: [
          { value: "zh", label: "中文", available: false, state: "downloading", progress: 42, engine: "sherpa" },
          { value: "en", label: "英文", available: true, state: "ready", engine: "moonshine" },
          { value: "auto", label: "自动识别", available: false, state: "downloading", progress: 42, engine: "sherpa" },
        ],
        maxSpeakers: 10,
        maxSeconds: 10800,
      }),
      "POST /api/v2/dictation/audio/dictation_batch": () => ({
        tasks: [
          { fileId: 1, taskId: 11, fileStatus: 3, code: 1 },
          { fileId: 2, taskId: 12, fileStatus: 3, code: 1 },
        ],
      }),
    });
    renderApp("/audio-list");
    await row(1);
    await userEvent.click(screen.getByRole("checkbox", { name: "全选本页" }));
    await userEvent.click(within(screen.getByTestId("batch-bar")).getByRole("button", { name: "转写" }));
    const dialog = await screen.findByRole("dialog");
    expect(await within(dialog).findByTestId("downloading-zh")).toHaveTextContent("中文识别模型正在下载（42%）");
    expect(within(dialog).queryByRole("radio", { name: /自动识别/ })).toBeNull();
    const english = within(dialog).getByRole("radio", { name: /英文/ });
    expect(english).not.toBeChecked();
    expect(english).toHaveAccessibleDescription("仅适用于英文语音");
    expect(within(dialog).getByTestId("confirm-transcribe")).toBeDisabled();
    await userEvent.click(english);
    await userEvent.click(within(dialog).getByTestId("confirm-transcribe"));
    await waitFor(() => expect(api.callsTo("/dictation_batch")).toHaveLength(1));
    const body = api.callsTo("/dictation_batch")[0]!.body as { dictationParam: string };
    expect(JSON.parse(body.dictationParam)).toMatchObject({ language: "en" });
  });

  it("moves a selection into a folder with the ids in the query string", async () => {
    const api = signedInBackend({
      "GET /api/v2/menu/sound_list": () => [{ menuId: "5", menuName: "会议" }],
      "GET /api/v3/audio/all_list": () => page([record({ fileId: 1 }), record({ fileId: 2 })]),
      "POST /api/v2/audio/move_batch": () => null,
    });
    renderApp("/audio-list");
    await row(1);
    await userEvent.click(screen.getByRole("checkbox", { name: "全选本页" }));
    await userEvent.click(within(screen.getByTestId("batch-bar")).getByRole("button", { name: "移动" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.selectOptions(within(dialog).getByRole("combobox"), "5");
    await userEvent.click(within(dialog).getByTestId("confirm"));
    await waitFor(() => expect(api.callsTo("/move_batch")).toHaveLength(1));
    const q = api.callsTo("/move_batch")[0]!.url.searchParams;
    expect(q.get("fileIds")).toBe("1,2");
    expect(q.get("menuId")).toBe("5");
  });

  it("renames a record from its menu", async () => {
    const api = signedInBackend({
      "GET /api/v3/audio/all_list": () => page([record({ fileId: 1 })]),
      "POST /api/v1/audio/record/update_record": () => null,
    });
    renderApp("/audio-list");
    await row(1);
    await userEvent.click(screen.getByRole("button", { name: "更多 录音1.mp3" }));
    await userEvent.click(await screen.findByRole("button", { name: "重命名" }));
    const input = within(await screen.findByRole("dialog")).getByRole("textbox");
    await userEvent.clear(input);
    await userEvent.type(input, "周会纪要.mp3");
    await userEvent.click(screen.getByRole("button", { name: "确定" }));
    await waitFor(() =>
      expect(api.callsTo("/update_record")[0]?.body).toEqual({ fileId: 1, fileName: "周会纪要.mp3" }),
    );
  });

  it("searches by name and filters by folder", async () => {
    const api = signedInBackend({
      "GET /api/v2/menu/sound_list": () => [{ menuId: "5", menuName: "会议" }],
      "GET /api/v3/audio/all_list": () => page([record({ fileId: 1 })]),
      "GET /api/v3/audio/list": () => page([]),
    });
    renderApp("/audio-list");
    await row(1);
    await userEvent.type(screen.getByRole("searchbox", { name: "搜索" }), "周会");
    await waitFor(() => expect(api.callsTo("/all_list").at(-1)!.url.searchParams.get("fileName")).toBe("周会"));
    await userEvent.click(await screen.findByRole("button", { name: "会议" }));
    await waitFor(() => expect(api.callsTo("/all_list").at(-1)!.url.searchParams.get("menuId")).toBe("5"));
    await userEvent.click(screen.getByRole("button", { name: "未归类" }));
    await waitFor(() => expect(api.callsTo("/api/v3/audio/list")).toHaveLength(1));
    expect(api.callsTo("/api/v3/audio/list")[0]!.url.searchParams.get("menuId")).toBe("0");
    expect(await screen.findByText("没有找到匹配的记录")).toBeInTheDocument();
  });

  it("has an empty state and an error state", async () => {
    let fail = true;
    signedInBackend({
      "GET /api/v3/audio/all_list": () => (fail ? envelopeError(99999, "boom") : page([])),
    });
    renderApp("/audio-list");
    await userEvent.click(await screen.findByRole("button", { name: "重试" }));
    fail = false;
    await userEvent.click(await screen.findByRole("button", { name: "重试" }));
    expect(await screen.findByText("还没有记录，上传一个音视频文件开始转写吧")).toBeInTheDocument();
  });
});

describe("/recycle-bin", () => {
  it("restores, and deletes forever only after confirming", async () => {
    const api = signedInBackend({
      "GET /api/v3/audio/recycle_list": () => page([record({ fileId: 9, deleteTime: 1_735_800_000 })]),
      "POST /api/v1/audio/record/restore": () => null,
      "POST /api/v1/audio/record/delete_forever": () => null,
    });
    renderApp("/recycle-bin");
    const r = await row(9);
    expect(r).toHaveTextContent(formatDateTime(1_735_800_000));
    await userEvent.click(within(r).getByRole("button", { name: "恢复" }));
    await waitFor(() => expect(api.callsTo("/restore")[0]?.body).toEqual({ fileIds: "9" }));

    await userEvent.click(within(await row(9)).getByRole("button", { name: "彻底删除" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent("彻底删除 1 条记录？");
    expect(api.callsTo("/delete_forever")).toHaveLength(0);
    await userEvent.click(within(dialog).getByTestId("confirm"));
    await waitFor(() => expect(api.callsTo("/delete_forever")[0]?.body).toEqual({ fileIds: "9" }));
  });

  it("says when it is empty", async () => {
    signedInBackend({ "GET /api/v3/audio/recycle_list": () => page([]) });
    renderApp("/recycle-bin");
    expect(await screen.findByText("回收站是空的")).toBeInTheDocument();
  });
});

describe("the header's card time follows the charges", () => {
  it("changes as soon as a transcription is charged, not when it is done", async () => {
    let remaining = 10_800;
    signedInBackend({
      "POST /api/v1/store/get_asset": () => ({ allTimeCard: remaining, allCoinNumber: 0 }),
      "GET /api/v3/audio/all_list": () => page([record({ fileId: 1, fileStatus: 0, progress: 0, timeLen: 600 })]),
      "POST /api/v2/dictation/audio/dictation_batch": () => {
        remaining -= 600; // the server charges the card at once
        return { tasks: [{ fileId: 1, taskId: 11, fileStatus: 3, code: 1 }] };
      },
      "GET /api/v1/dictation/progress/get_progress": () => [{ fileId: 1, fileStatus: 3, progress: 0, taskId: 11 }],
    });
    renderApp("/audio-list");
    await waitFor(() => expect(screen.getByTestId("time-card")).toHaveTextContent("3 小时"));
    await userEvent.click(within(await row(1)).getByRole("button", { name: "转写" }));
    await userEvent.click(await within(await screen.findByRole("dialog")).findByTestId("confirm-transcribe"));
    await waitFor(() => expect(screen.getByTestId("time-card")).toHaveTextContent("2小时50分"));
  });

  it("changes back when a task fails (failures are refunded)", async () => {
    let remaining = 10_200;
    let polls = 0;
    signedInBackend({
      "POST /api/v1/store/get_asset": () => ({ allTimeCard: remaining, allCoinNumber: 0 }),
      "GET /api/v3/audio/all_list": () => page([record({ fileId: 1, fileStatus: 1, progress: 10 })]),
      "GET /api/v1/dictation/progress/get_progress": () => {
        polls += 1;
        if (polls === 1) return [{ fileId: 1, fileStatus: 1, progress: 20, taskId: 11 }];
        remaining = 10_800; // the worker failed the task and refunded it
        return [{ fileId: 1, fileStatus: -1, progress: 0, taskId: 11, errorMsg: "音频文件已丢失" }];
      },
    });
    renderApp("/audio-list");
    await waitFor(() => expect(screen.getByTestId("time-card")).toHaveTextContent("2小时50分"));
    await waitFor(() => expect(screen.getByTestId("time-card")).toHaveTextContent("3 小时"), { timeout: 5000 });
  });
});

describe("transcription length", () => {
  it("names the records longer than 3 hours in the transcribe dialog and sends only the others", async () => {
    const api = signedInBackend({
      "GET /api/v3/audio/all_list": () =>
        page([
          record({ fileId: 1, fileStatus: 0, progress: 0, timeLen: 4 * 3600 }),
          record({ fileId: 2, fileStatus: 0, progress: 0, timeLen: 60 }),
        ]),
      "POST /api/v2/dictation/audio/dictation_batch": () => ({
        tasks: [{ fileId: 2, taskId: 5, fileStatus: 3, code: 1 }],
      }),
    });
    renderApp("/audio-list");
    await row(1);
    await userEvent.click(screen.getByRole("checkbox", { name: "全选本页" }));
    await userEvent.click(within(screen.getByTestId("batch-bar")).getByRole("button", { name: "转写" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent("转写 1 个文件");
    expect(within(dialog).getByTestId("transcribe-too-long")).toHaveTextContent("1 个文件超过 3 小时，无法转写");
    await userEvent.click(await within(dialog).findByTestId("confirm-transcribe"));
    await waitFor(() => expect(api.callsTo("/dictation_batch")).toHaveLength(1));
    expect((api.callsTo("/dictation_batch")[0]!.body as { fileIds: string }).fileIds).toBe("2");
  });
});
