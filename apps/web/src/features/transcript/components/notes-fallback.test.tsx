import { cleanup, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Chapters, SummaryNote } from "@yuelu/contracts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";
import { DETAIL, notesBackend, notesOf, OFFLINE_CHAPTERS, SEGMENTS, task } from "./notes.fixtures.ts";

/**
 * Notes the model could not make in the form asked for (issue 41): the pages say which parts are its plain text
 * and which were made offline instead, in zh and en.
 */

const FALLBACK_CHAPTERS = { ...OFFLINE_CHAPTERS, fallback: { chapters: "offline" } } as Chapters;
const PROSE_SUMMARY: SummaryNote = {
  abstracts: "会议讨论了预算和招聘。",
  todos: [{ text: "李四周五前把面试安排好", owner: null, due: "周五", segmentIndex: 2, startTime: 120_000 }],
  fallback: { abstracts: "prose", todos: "offline" },
};

beforeEach(() => {
  signInCookies();
  vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(() => Promise.resolve());
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("notes made otherwise than asked", () => {
  for (const [lang, tab, label] of [
    ["zh", "章节速览", "模型的回答无法使用，章节由离线方法生成"],
    ["en", "Chapters", "The model's answer was unusable; chapters made offline"],
  ] as const) {
    it(`chapters made offline because the model's answer was unusable say so (${lang})`, async () => {
      setLang(lang);
      const done = task({ status: 2, progress: 100, result: FALLBACK_CHAPTERS });
      notesBackend({
        "GET /text/notes": () => notesOf({ notes: [done] }),
        "GET /text/chapters": () => FALLBACK_CHAPTERS,
      });
      renderApp(DETAIL);
      await userEvent.click(await screen.findByRole("tab", { name: tab }, { timeout: 10_000 }));
      expect(await screen.findByTestId("chapters-source")).toHaveTextContent(label);
      expect(screen.getAllByTestId("chapter")[0]).toHaveTextContent("预算、发票");
    });
  }

  it("a prose summary and offline to-dos are labelled, in zh and in en", async () => {
    setLang("zh");
    const done = task({ kind: "summary", status: 2, progress: 100, result: PROSE_SUMMARY });
    notesBackend({ "GET /text/notes": () => notesOf({ notes: [done] }) }, { abstracts: PROSE_SUMMARY.abstracts });
    const view = renderApp(DETAIL);
    const panel = await screen.findByTestId("summary", {}, { timeout: 10_000 });
    expect(await within(panel).findByTestId("summary-source")).toHaveTextContent("模型以纯文本作答，摘要照录其原文");
    const todos = within(panel).getByTestId("todos");
    expect(todos).toHaveTextContent("模型未列出待办，由离线方法找出");
    expect(todos).not.toHaveTextContent("自动找出，未经 AI 整理");
    expect(within(todos).getAllByTestId("todo")[0]).toHaveTextContent("李四周五前把面试安排好");
    view.unmount();

    setLang("en");
    renderApp(DETAIL);
    const en = await screen.findByTestId("summary", {}, { timeout: 10_000 });
    expect(await within(en).findByTestId("summary-source")).toHaveTextContent(
      "The model answered in plain text; summary taken as written",
    );
    expect(within(en).getByTestId("todos")).toHaveTextContent("Not listed by the model; found offline");
  });

  it("a summary in the asked form carries no such label", async () => {
    setLang("zh");
    const result: SummaryNote = { abstracts: PROSE_SUMMARY.abstracts, todos: PROSE_SUMMARY.todos };
    notesBackend({ "GET /text/notes": () => notesOf({ notes: [task({ kind: "summary", status: 2, result })] }) });
    renderApp(DETAIL);
    const panel = await screen.findByTestId("summary", {}, { timeout: 10_000 });
    expect(await within(panel).findByTestId("todos")).not.toHaveTextContent("由离线方法找出");
    expect(within(panel).queryByTestId("summary-source")).toBeNull();
  });

  it("a plain-text answer citing nothing says so", async () => {
    setLang("zh");
    const passage = { fileId: 1, fileName: "周会.mp3", segmentIndex: 1, speaker: "李四", ...SEGMENTS[1]! };
    const answer = task({
      taskId: 21,
      kind: "answer",
      question: "预算怎么样？",
      status: 2,
      progress: 100,
      result: { answer: "预算这季度超了。", citations: [], fallback: { answer: "prose" } },
    });
    notesBackend({
      "POST /text/ask": () => ({ mode: "passages", passages: [passage], task: { ...answer, status: 3, result: null } }),
      "GET /text/notes/task": () => answer,
    });
    renderApp(DETAIL);
    await userEvent.click(await screen.findByRole("tab", { name: "问问" }, { timeout: 10_000 }));
    const panel = screen.getByTestId("ask");
    await userEvent.type(within(panel).getByRole("textbox", { name: "问问这段录音" }), "预算怎么样？");
    await userEvent.click(within(panel).getByRole("button", { name: "提问" }));
    expect(await within(panel).findByTestId("answer", {}, { timeout: 5000 })).toHaveTextContent("预算这季度超了。");
    expect(within(panel).getByTestId("answer-source")).toHaveTextContent("模型以纯文本作答，未标注出处");
  });
});
