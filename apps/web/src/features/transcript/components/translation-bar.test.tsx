import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";
import { DETAIL, NO_LLM, notesBackend, notesOf, SEGMENTS, task } from "./notes.fixtures.ts";

/** Translation on /detail (issue 24): the control, the three views, the translated subtitle exports. */

const translated = task({
  taskId: 9,
  kind: "translation",
  target: "en",
  status: 2,
  progress: 100,
  result: {
    target: "en",
    segments: SEGMENTS.map((s, index) => ({ index, startTime: s.startTime, endTime: s.endTime, text: `EN: ${index}` })),
  },
});

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const bar = () => screen.findByTestId("translation-bar", {}, { timeout: 10_000 });

describe("/detail translation", () => {
  it("without a model: no translation bar above the transcript; the page says once, in users' words, that AI is off", async () => {
    notesBackend({ "GET /text/notes": () => notesOf({ llm: NO_LLM }) });
    renderApp(DETAIL);
    const off = await screen.findByTestId("ai-off", {}, { timeout: 10_000 });
    expect(off).toHaveTextContent("AI 功能未开启");
    expect(off).toHaveTextContent("开启后可生成摘要、章节、翻译和问答");
    expect(screen.getAllByTestId("ai-off")).toHaveLength(1);
    expect(screen.queryByTestId("translation-bar")).toBeNull();
    expect(screen.queryByRole("button", { name: "翻译成英文" })).toBeNull();
    expect(document.body.textContent).not.toMatch(/LLM_|大语言模型/);
    // with the notes, not between the player and the transcript (on a phone it is in the notes' pane)
    expect(off.closest(".detail-side")).not.toBeNull();
  });

  it("translates a Chinese transcript into English (one task per press), then shows it side by side or alone", async () => {
    let server = notesOf();
    const api = notesBackend({
      "GET /text/notes": () => server,
      "POST /text/notes": () => {
        server = notesOf({ notes: [translated] });
        return task({ taskId: 9, kind: "translation", target: "en", status: 3 });
      },
    });
    renderApp(DETAIL);
    const translationBar = await bar();
    await userEvent.dblClick(await within(translationBar).findByRole("button", { name: "翻译成英文" }));
    expect(await within(translationBar).findByText("排队中…")).toBeInTheDocument();
    const posts = api.callsTo("/text/notes").filter((c) => c.method === "POST");
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toEqual({ kind: "translation", target: "en", fileId: 1, requestId: expect.any(String) });

    const side = await within(translationBar).findByRole("button", { name: "对照" }, { timeout: 4000 });
    expect(screen.queryAllByTestId("segment-translation")).toHaveLength(0);
    await userEvent.click(side);
    expect(side).toHaveAttribute("aria-pressed", "true");
    const rows = screen.getAllByTestId("segment");
    expect(within(rows[1]!).getByTestId("segment-translation")).toHaveTextContent("EN: 1");
    expect(rows[1]).toHaveTextContent("预算这季度超了。");
    expect(within(rows[1]!).getByTestId("segment-translation")).toHaveAttribute("lang", "en");

    await userEvent.click(within(translationBar).getByRole("button", { name: "仅译文" }));
    await waitFor(() => expect(screen.getAllByTestId("segment")[1]).not.toHaveTextContent("预算这季度超了。"));
    expect(screen.getAllByTestId("segment")[1]).toHaveTextContent("EN: 1");
    expect(screen.getAllByTestId("segment")[1]).toHaveTextContent("01:00"); // same times as the original

    await userEvent.click(within(translationBar).getByRole("button", { name: "原文" }));
    expect(screen.queryAllByTestId("segment-translation")).toHaveLength(0);
  });

  it("offers a Chinese translation for an English transcript", async () => {
    notesBackend({}, { language: "en", segments: [{ spkName: "A", startTime: 0, endTime: 1000, text: "Hello." }] });
    renderApp(DETAIL);
    expect(await within(await bar()).findByRole("button", { name: "翻译成中文" })).toBeEnabled();
  });

  it("speaks English: the control, where the text goes, today's budget", async () => {
    setLang("en");
    notesBackend({});
    renderApp(DETAIL);
    const translationBar = await bar();
    expect(await within(translationBar).findByRole("button", { name: "Translate into English" })).toBeEnabled();
    expect(within(translationBar).getByTestId("ai-note")).toHaveTextContent(
      "Sent to the model fake-model at llm.example:8080",
    );
    expect(within(translationBar).getByTestId("ai-budget")).toHaveTextContent("AI today: 1,200 / 200,000 tokens");
  });

  it("exports SRT/VTT with the translation under the original, or alone, once one is done", async () => {
    const api = notesBackend({
      "GET /text/notes": () => notesOf({ notes: [translated] }),
      "GET /api/v3/audio/text/export_srt": () =>
        new Response(new Blob(["1\n00:00:00,000 --> 00:01:00,000\nEN: 0\n"]), {
          headers: { "content-type": "application/x-subrip" },
        }),
    });
    vi.spyOn(URL, "createObjectURL").mockImplementation(() => "blob:x");
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderApp(DETAIL);
    await bar();
    await userEvent.click(screen.getByTestId("export-menu"));
    expect(await screen.findByRole("button", { name: "VTT 字幕 · 仅英文译文" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "SRT 字幕 · 附英文译文" }));
    await waitFor(() => expect(api.callsTo("/export_srt")).toHaveLength(1));
    const params = api.callsTo("/export_srt")[0]!.url.searchParams;
    expect(params.get("translation")).toBe("en");
    expect(params.get("bilingual")).toBe("true");
    await waitFor(() => expect(saved).toEqual(["周会.en.srt"]));
  });
});
