import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Chapters } from "@yuelu/contracts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { envelopeError, signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";
import { DETAIL, NO_LLM, notesBackend, notesOf, task } from "./notes.fixtures.ts";

const LLM_CHAPTERS: Chapters = {
  source: "llm",
  chapters: [
    { from: 0, to: 1, startTime: 0, endTime: 120_000, title: "话题1", gist: ["预算超了。"] },
    { from: 2, to: 2, startTime: 120_000, endTime: 180_000, title: "话题2", gist: ["安排面试。"] },
  ],
};

const openChapters = async () =>
  userEvent.click(await screen.findByRole("tab", { name: "章节速览" }, { timeout: 10_000 }));

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("/detail chapters (issue 24)", () => {
  it("lists the offline chapters with times, titles and gists; a click plays the chapter from its start", async () => {
    const api = notesBackend({ "GET /text/notes": () => notesOf({ llm: NO_LLM }) });
    renderApp(DETAIL);
    await openChapters();
    const items = await screen.findAllByTestId("chapter");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent("00:00–02:00");
    expect(items[0]).toHaveTextContent("1. 预算、发票");
    expect(items[1]).toHaveTextContent("然后是招聘。");
    expect(screen.getByTestId("chapters-source")).toHaveTextContent(/自动分段/);
    expect(api.callsTo("/text/chapters")[0]!.url.searchParams.get("fileId")).toBe("1");
    // no model: no AI button; the page says once that AI is off, not each panel
    const panel = screen.getByTestId("chapters");
    expect(within(panel).queryByText(/AI 功能未开启/)).toBeNull();
    expect(screen.getAllByTestId("ai-off")).toHaveLength(1);
    expect(screen.queryByRole("button", { name: "用 AI 重新生成" })).toBeNull();

    const player = screen.getByTestId("player") as HTMLMediaElement;
    await userEvent.click(within(items[1]!).getByRole("button"));
    expect(player.currentTime).toBe(120);
  });

  it("says so when they cannot be loaded, and asks again on Retry", async () => {
    let calls = 0;
    notesBackend({ "GET /text/chapters": () => (++calls === 1 ? envelopeError(500, "系统错误") : LLM_CHAPTERS) });
    renderApp(DETAIL);
    await openChapters();
    const failed = await screen.findByText("章节加载失败");
    await userEvent.click(within(failed.parentElement!).getByRole("button", { name: "重试" }));
    expect(await screen.findAllByTestId("chapter")).toHaveLength(2);
  });

  it("with a model: says where the text goes and today's budget; one task per press, its progress, Cancel", async () => {
    let server = notesOf();
    const api = notesBackend({
      "GET /text/notes": () => server,
      "POST /text/notes": () => {
        server = notesOf({ notes: [task({ status: 1, progress: 40 })] });
        return task({ status: 3 });
      },
      "POST /text/notes/cancel": () => {
        server = notesOf({ notes: [task({ status: -1, errorReason: "cancelled", errorText: "已取消" })] });
        return server.notes[0];
      },
    });
    renderApp(DETAIL);
    await openChapters();
    const panel = await screen.findByTestId("chapters");
    expect(await within(panel).findByTestId("ai-note")).toHaveTextContent(
      "将发送到 llm.example:8080 上的模型 fake-model",
    );
    expect(within(panel).getByTestId("ai-budget")).toHaveTextContent("今日 AI 用量 1,200 / 200,000 tokens");

    const make = screen.getByRole("button", { name: "用 AI 重新生成" });
    await userEvent.dblClick(make);
    expect(await screen.findByText("排队中…")).toBeInTheDocument();
    expect(api.callsTo("/text/notes").filter((c) => c.method === "POST")).toHaveLength(1);
    expect(api.callsTo("/text/notes").find((c) => c.method === "POST")!.body).toEqual({
      kind: "chapters",
      fileId: 1,
      requestId: expect.any(String),
    });
    expect(make).toBeDisabled();

    // polled while it runs
    expect(await screen.findByText("AI 正在生成… 40%", {}, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.getByRole("progressbar", { name: "AI 生成进度" })).toHaveAttribute("aria-valuenow", "40");
    await userEvent.click(screen.getByRole("button", { name: "取消" }));
    expect(await screen.findByText("已取消")).toBeInTheDocument();
    expect(api.callsTo("/text/notes/cancel")[0]!.body).toEqual({ taskId: 7 });
    expect(screen.queryByRole("progressbar")).toBeNull();
    // ended: no more polling
    const polls = api.callsTo("/text/notes").filter((c) => c.method === "GET").length;
    await new Promise((r) => setTimeout(r, 2000));
    expect(api.callsTo("/text/notes").filter((c) => c.method === "GET")).toHaveLength(polls);
    expect(make).toBeEnabled();
  });

  it("shows the AI's chapters once done (by AI, click seeks), and the stale note with Regenerate", async () => {
    const done = task({ status: 2, progress: 100, result: LLM_CHAPTERS, stale: true });
    const api = notesBackend({
      "GET /text/notes": () => notesOf({ notes: [done] }),
      "POST /text/notes": () => task({ taskId: 8, status: 3 }),
    });
    renderApp(DETAIL);
    await openChapters();
    await waitFor(() => expect(screen.getAllByTestId("chapter")[0]).toHaveTextContent("1. 话题1"));
    expect(screen.getByTestId("chapters-source")).toHaveTextContent("AI 生成（fake-model）");
    const player = screen.getByTestId("player") as HTMLMediaElement;
    await userEvent.click(within(screen.getAllByTestId("chapter")[1]!).getByRole("button"));
    expect(player.currentTime).toBe(120);

    expect(screen.getByText("转写已修改，结果可能过时")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "重新生成" }));
    expect(await screen.findByText("排队中…")).toBeInTheDocument();
    expect(api.callsTo("/text/notes").find((c) => c.method === "POST")!.body).toMatchObject({ kind: "chapters" });
  });

  it("says why a task failed, and why a press was refused (today's budget used up)", async () => {
    const failed = task({ status: -1, errorReason: "llm-unavailable", errorText: "大语言模型服务无法连接或超时" });
    notesBackend({
      "GET /text/notes": () => notesOf({ notes: [failed] }),
      "POST /text/notes": () => envelopeError(50008, "今日 AI 额度已用完（200000 tokens），明天再来吧"),
    });
    renderApp(DETAIL);
    await openChapters();
    expect(await screen.findByText("生成失败：大语言模型服务无法连接或超时")).toBeInTheDocument();
    // the offline chapters stay meanwhile
    expect(screen.getAllByTestId("chapter")[0]).toHaveTextContent("预算、发票");
    await userEvent.click(screen.getByRole("button", { name: "用 AI 重新生成" }));
    expect(await screen.findByText("今日 AI 额度已用完（200000 tokens），明天再来吧")).toHaveAttribute("role", "alert");
  });
});
