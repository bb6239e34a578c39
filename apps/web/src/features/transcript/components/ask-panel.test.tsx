import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Passage } from "@yuelu/contracts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";
import { DETAIL, LLM, NO_LLM, notesBackend, notesOf, SEGMENTS, task } from "./notes.fixtures.ts";

/** Ask the transcript (issue 24): passages at once, labelled as such; the model's answer with citation chips. */

const passage = (segmentIndex: number, fileId = 1, fileName = "周会.mp3"): Passage => ({
  fileId,
  fileName,
  segmentIndex,
  startTime: SEGMENTS[segmentIndex]!.startTime,
  endTime: SEGMENTS[segmentIndex]!.endTime,
  speaker: SEGMENTS[segmentIndex]!.spkName,
  text: SEGMENTS[segmentIndex]!.text,
});
const answerTask = (status: number, fileId: number | null = 1) =>
  task({
    taskId: 21,
    fileId,
    kind: "answer",
    question: "预算怎么样？",
    status,
    progress: status === 2 ? 100 : 30,
    result:
      status === 2
        ? {
            answer: "预算这季度超了[2]，要先看发票[1]。",
            citations: [
              { ...passage(0, fileId ?? 1), n: 1 },
              { ...passage(1, fileId ?? 1), n: 2 },
            ],
          }
        : null,
  });

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

async function askOnDetail(question: string) {
  await userEvent.click(await screen.findByRole("tab", { name: "问问" }, { timeout: 10_000 }));
  const panel = screen.getByTestId("ask");
  await userEvent.type(within(panel).getByRole("textbox", { name: "问问这段录音" }), question);
  await userEvent.click(within(panel).getByRole("button", { name: "提问" }));
  return panel;
}

describe("ask this recording", () => {
  it("lists the passages as passages (time, speaker; a click plays), then the answer whose [n] chips seek", async () => {
    let polls = 0;
    const api = notesBackend({
      "POST /text/ask": () => ({ mode: "passages", passages: [passage(1), passage(0)], task: answerTask(3) }),
      "GET /text/notes/task": () => answerTask(++polls < 2 ? 1 : 2),
    });
    renderApp(DETAIL);
    const panel = await askOnDetail("预算怎么样？");
    const passages = await within(panel).findByTestId("passages");
    expect(passages).toHaveTextContent("相关段落（原文摘录，不是回答）");
    const items = within(passages).getAllByTestId("passage");
    expect(items[0]).toHaveTextContent("01:00李四预算这季度超了。");
    expect(api.callsTo("/text/ask")[0]!.body).toEqual({
      question: "预算怎么样？",
      fileId: 1,
      requestId: expect.any(String),
    });
    const player = screen.getByTestId("player") as HTMLMediaElement;
    await userEvent.click(within(items[0]!).getByRole("button", { name: "从 01:00 播放" }));
    expect(player.currentTime).toBe(60);

    expect(within(panel).getByTestId("answer-running")).toHaveTextContent("AI 正在回答…");
    const answer = await within(panel).findByTestId("answer", {}, { timeout: 6000 });
    expect(answer).toHaveTextContent("预算这季度超了[2]，要先看发票[1]。");
    await userEvent.click(within(answer).getByRole("button", { name: "播放引用 1（00:00）" }));
    expect(player.currentTime).toBe(0);
    await waitFor(() => expect(screen.getAllByTestId("segment")[0]).toHaveAttribute("aria-current", "true"));
    await userEvent.click(within(answer).getByRole("button", { name: "播放引用 2（01:00）" }));
    expect(player.currentTime).toBe(60);
    await waitFor(() => expect(screen.getAllByTestId("segment")[1]).toHaveAttribute("aria-current", "true"));
    expect(api.callsTo("/text/notes/task")[0]!.url.searchParams.get("taskId")).toBe("21");
  });

  it("without a model: only the passages, and the page says so", async () => {
    notesBackend({
      "GET /text/notes": () => notesOf({ llm: NO_LLM }),
      "POST /text/ask": () => ({ mode: "passages", passages: [passage(2)], task: null }),
    });
    renderApp(DETAIL);
    const panel = await askOnDetail("面试");
    expect(await within(panel).findByText("AI 功能未开启，只列出相关段落。")).toBeInTheDocument();
    expect(within(panel).getAllByTestId("passage")).toHaveLength(1);
    expect(within(panel).queryByTestId("answer")).toBeNull();
  });

  it("says why an answer failed", async () => {
    notesBackend({
      "POST /text/ask": () => ({
        mode: "passages",
        passages: [],
        task: task({ kind: "answer", status: -1, errorReason: "llm-bad-answer", errorText: "格式不正确" }),
      }),
    });
    renderApp(DETAIL);
    const panel = await askOnDetail("预算");
    expect(await within(panel).findByTestId("answer-failed")).toHaveTextContent("回答失败：格式不正确");
    expect(within(panel).getByText("没有找到相关段落")).toBeInTheDocument();
  });
});

describe("ask across all my records (/search?mode=ask)", () => {
  it("asks without a fileId; passages and citations open /detail at their moment", async () => {
    const api = notesBackend({
      "GET /text/notes/engine": () => LLM,
      "POST /text/ask": () => ({
        mode: "passages",
        passages: [passage(1, 5, "季度会.mp3")],
        task: answerTask(2, null),
      }),
    });
    renderApp("/search?mode=ask");
    const input = await screen.findByRole("textbox", { name: "问问我的全部记录" }, { timeout: 10_000 });
    expect(screen.getByRole("tab", { name: "提问" })).toHaveAttribute("aria-selected", "true");
    expect(await screen.findByTestId("ai-note")).toHaveTextContent("将发送到 llm.example:8080 上的模型 fake-model");
    await userEvent.type(input, "预算");
    await userEvent.click(screen.getByRole("button", { name: "提问" }));
    const passages = await screen.findByTestId("passages");
    expect(passages).toHaveTextContent("季度会.mp3");
    const link = within(passages).getByRole("link");
    const href = new URL(link.getAttribute("href")!, "http://x");
    expect(href.pathname).toBe("/detail");
    expect(href.searchParams.get("fileId")).toBe("5");
    expect(href.searchParams.get("t")).toBe("60000");
    expect(api.callsTo("/text/ask")[0]!.body).toEqual({ question: "预算", requestId: expect.any(String) });

    const chip = within(screen.getByTestId("answer")).getByRole("link", { name: /打开引用 1/ });
    expect(new URL(chip.getAttribute("href")!, "http://x").searchParams.get("t")).toBe("0");
  });

  it("switches between searching and asking", async () => {
    notesBackend({});
    const { router } = renderApp("/search");
    await userEvent.click(await screen.findByRole("tab", { name: "提问" }, { timeout: 10_000 }));
    expect(router.state.location.search).toBe("?mode=ask");
    expect(screen.getByRole("textbox", { name: "问问我的全部记录" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("tab", { name: "搜索" }));
    expect(screen.getByRole("searchbox", { name: "搜索全部记录" })).toBeInTheDocument();
  });
});
