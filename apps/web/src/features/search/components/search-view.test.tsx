import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { SearchResult } from "@yuelu/contracts";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { engagementBackend } from "@/testing/engagement-fixtures.ts";
import { envelopeError, type FakeCall, signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";

/** /search?q=: results grouped by record, hits with their time and marked words, a click to /detail. */

beforeAll(() => import("./search-view.tsx"), 30_000);
beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => vi.unstubAllGlobals());

const RESULT: SearchResult = {
  total: 2,
  list: [
    {
      fileId: 11,
      fileName: "周会记录.mp3",
      hits: [
        { startTime: 5_000, text: "下午三点在会议室开会。", highlights: [[5, 8]] },
        { startTime: 3_723_456, text: "会议室订好了。", highlights: [[0, 3]] },
      ],
      hitCount: 7,
      matchedIn: ["segment"],
      nameHighlights: [],
    },
    { fileId: 12, fileName: "会议室装修.m4a", hits: [], hitCount: 0, matchedIn: ["name"], nameHighlights: [[0, 3]] },
  ],
};

function searchBackend(answer: (call: FakeCall) => unknown = () => RESULT) {
  return engagementBackend({ "GET /api/v1/search": answer });
}

describe("search page", () => {
  it("shows records with their hits, times (m:ss, h:mm:ss) and marked words; a hit links to /detail at its time", async () => {
    const api = searchBackend();
    renderApp("/search?q=会议室");
    const records = await screen.findAllByTestId("search-record", {}, { timeout: 3000 });
    expect(records).toHaveLength(2);
    expect(screen.getByTestId("search-total")).toHaveTextContent("2 条记录");
    const hits = within(records[0]!).getAllByTestId("search-hit");
    expect(hits[0]).toHaveTextContent("0:05");
    expect(hits[1]).toHaveTextContent("1:02:03");
    expect(hits[0]!.querySelector("mark")).toHaveTextContent("会议室");
    expect(within(records[0]!).getByText("还有 5 处匹配")).toBeInTheDocument();
    const href = new URL(hits[0]!.getAttribute("href")!, "http://x");
    expect(href.pathname).toBe("/detail");
    expect(Object.fromEntries(href.searchParams)).toEqual({
      fileId: "11",
      fileName: "周会记录.mp3",
      t: "5000",
      q: "会议室",
    });
    // a record found by its name: the name marked, no hits
    expect(records[1]!.querySelector("mark")).toHaveTextContent("会议室");
    expect(records[1]).toHaveTextContent("名称匹配");
    expect(api.callsTo("/api/v1/search")[0]!.url.searchParams.get("q")).toBe("会议室");
  });

  it("runs the query typed, after a pause, and says when nothing matches", async () => {
    const user = userEvent.setup();
    const api = searchBackend((call) => (call.url.searchParams.get("q") === "火箭" ? { total: 0, list: [] } : RESULT));
    renderApp("/search");
    expect(await screen.findByText(/输入关键词/, {}, { timeout: 3000 })).toBeInTheDocument();
    await user.type(screen.getByTestId("search-input"), "火箭");
    expect(await screen.findByText("没有找到与“火箭”相关的记录", {}, { timeout: 3000 })).toBeInTheDocument();
    // typed one character at a time, asked once: the box waits for a pause
    expect(api.callsTo("/api/v1/search").map((c) => c.url.searchParams.get("q"))).toEqual(["火箭"]);
  });

  it("shows an error with a retry when the search fails", async () => {
    let fail = true;
    searchBackend(() => (fail ? envelopeError(10000, "boom") : RESULT));
    const user = userEvent.setup();
    renderApp("/search?q=会议室");
    const alert = await screen.findByRole("alert", {}, { timeout: 3000 });
    fail = false;
    await user.click(within(alert).getByRole("button"));
    await waitFor(() => expect(screen.getAllByTestId("search-record")).toHaveLength(2));
  });

  it("speaks English", async () => {
    setLang("en");
    searchBackend();
    renderApp("/search?q=会议室");
    expect(await screen.findByText("2 records", {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByText("name matches")).toBeInTheDocument();
  });
});
