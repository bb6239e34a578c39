import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";
import { DETAIL, NO_LLM, notesBackend, notesOf, task } from "./notes.fixtures.ts";

/** The summary tab's AI summary and to-dos (issue 24). */

beforeEach(() => {
  setLang("zh");
  signInCookies();
  vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(() => Promise.resolve());
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const summaryPanel = () => screen.findByTestId("summary", {}, { timeout: 10_000 });

describe("/detail summary and to-dos", () => {
  it("offline: the extractive summary button, the to-dos found automatically (labelled), a click plays from one", async () => {
    notesBackend({ "GET /text/notes": () => notesOf({ llm: NO_LLM }) });
    renderApp(DETAIL);
    const panel = await summaryPanel();
    expect(within(panel).getByRole("button", { name: "生成摘要" })).toBeInTheDocument();
    expect(within(panel).queryByRole("button", { name: "AI 总结" })).toBeNull();
    const todos = await within(panel).findByTestId("todos");
    expect(todos).toHaveTextContent("自动找出，未经 AI 整理");
    const items = within(todos).getAllByTestId("todo");
    expect(items).toHaveLength(1);
    expect(items[0]).toHaveTextContent("李四周五前把面试安排好");
    expect(items[0]).toHaveTextContent("截止：周五");
    const player = screen.getByTestId("player") as HTMLMediaElement;
    await userEvent.click(within(items[0]!).getByRole("button", { name: "从 02:00 播放" }));
    expect(player.currentTime).toBe(120);
    expect(HTMLMediaElement.prototype.play).toHaveBeenCalled();
  });

  it("with a model: Summarise with AI makes a task (progress), then shows its summary and to-dos with owners", async () => {
    let server = notesOf();
    let abstracts = "旧摘要";
    const api = notesBackend({
      "GET /text/notes": () => server,
      "POST /text/update_abstracts": () => {
        server = notesOf({ notes: [task({ kind: "summary", status: 1, progress: 50 })] });
        return { abstracts, task: task({ kind: "summary", status: 3 }) };
      },
      "GET /api/v2/audio/text/get_text": () => ({
        fileId: 1,
        fileName: "周会.mp3",
        updateTime: 1_735_787_045,
        timeLen: 180,
        language: "zh",
        asrResult: JSON.stringify([{ spkName: "张三", startTime: 0, endTime: 60_000, text: "先说预算。" }]),
        abstracts,
        audio: null,
      }),
    });
    renderApp(DETAIL);
    const panel = await summaryPanel();
    await userEvent.dblClick(await within(panel).findByRole("button", { name: "AI 总结" }));
    expect(await within(panel).findByText("排队中…")).toBeInTheDocument();
    expect(api.callsTo("/text/update_abstracts")).toHaveLength(1);
    expect(api.callsTo("/text/update_abstracts")[0]!.body).toEqual({ fileId: 1, requestId: expect.any(String) });
    expect(await within(panel).findByText("AI 正在生成… 50%", {}, { timeout: 4000 })).toBeInTheDocument();

    // the worker finishes: the summary is written into the transcript's abstracts, the to-dos come with it
    abstracts = "预算超了；周五前安排面试。";
    const todo = { text: "安排面试", owner: "李四", due: "周五", segmentIndex: 0, startTime: 0 };
    server = notesOf({
      notes: [task({ kind: "summary", status: 2, progress: 100, result: { abstracts, todos: [todo] } })],
    });
    await waitFor(() => expect(within(panel).getByRole("textbox", { name: "摘要" })).toHaveValue(abstracts), {
      timeout: 4000,
    });
    const todos = within(panel).getByTestId("todos");
    expect(todos).not.toHaveTextContent("自动找出");
    expect(within(todos).getByTestId("todo")).toHaveTextContent("安排面试负责人：李四 · 截止：周五");
  });
});
