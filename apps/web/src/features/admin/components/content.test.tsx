import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AdminFeedback, AdminHelpDoc } from "@yuelu/contracts";
import { StatusCode } from "@yuelu/contracts/constants";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { engagementBackend } from "@/testing/engagement-fixtures.ts";
import { envelopeError, type FakeCall, signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";
import { adminMe, feedback, helpDoc, page } from "../testing/fake-admin.ts";

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => vi.unstubAllGlobals());

function helpBackend(patch?: (call: FakeCall) => unknown) {
  const state = { doc: helpDoc() };
  const api = engagementBackend({
    "GET /admin/me": () => adminMe(),
    "GET /admin/help": () => page([state.doc]),
    "PATCH /admin/help/3":
      patch ??
      ((call: FakeCall) => {
        state.doc = { ...state.doc, ...(call.body as Partial<AdminHelpDoc>) };
        return state.doc;
      }),
  });
  return { api, state };
}

async function openEditor() {
  renderApp("/admin/content");
  const table = await screen.findByTestId("help-table", {}, { timeout: 5000 });
  const row = within(table).getByRole("row", { name: /quota/ });
  await userEvent.click(within(row).getByRole("button", { name: "编辑" }));
  return screen.findByRole("dialog", { name: "编辑文档：时长与额度说明" });
}

const MARKDOWN =
  "# 每日上限\n\n**次日 0 点**恢复。<script>window.__pwned=1</script> [x](javascript:alert(1))\n\n1. 一\n2. 二";

describe("editing a help document", () => {
  it("previews the Markdown as the help centre shows it, and PATCHes only the fields changed", async () => {
    const { api } = helpBackend();
    const dialog = await openEditor();
    expect(within(dialog).getByTestId("help-preview")).toHaveTextContent("转写会消耗时长卡中的时长。");

    const text = within(dialog).getByTestId("help-content");
    await userEvent.clear(text);
    await userEvent.click(text);
    await userEvent.paste(MARKDOWN);
    const preview = within(dialog).getByTestId("help-preview");
    // the preview: Markdown as elements, the HTML as its characters, no javascript: link
    expect(within(preview).getByRole("heading", { level: 3, name: "每日上限" })).toBeInTheDocument();
    expect(within(preview).getByText("次日 0 点").tagName).toBe("STRONG");
    expect(within(preview).getAllByRole("listitem")).toHaveLength(2);
    expect(preview).toHaveTextContent("<script>window.__pwned=1</script>");
    expect(preview.querySelector("script, a")).toBeNull();

    // the English tab edits and previews the English text
    await userEvent.click(within(dialog).getByRole("tab", { name: "正文（英文）" }));
    expect(within(dialog).getByTestId("help-content")).toHaveValue("Transcription uses time from your duration cards.");
    expect(within(dialog).getByTestId("help-preview")).toHaveTextContent("Transcription uses time");
    const titleEn = within(dialog).getByLabelText("标题（英文）");
    await userEvent.clear(titleEn);
    await userEvent.type(titleEn, "Time and daily quotas");

    await userEvent.click(within(dialog).getByRole("button", { name: "保存" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    const patches = api.callsTo("/admin/help/3");
    expect(patches.map((c) => c.method)).toEqual(["PATCH"]);
    expect(patches[0]?.body).toEqual({ titleEn: "Time and daily quotas", content: MARKDOWN });
    expect(await screen.findByText("已保存", { selector: "[data-sonner-toast] *" })).toBeInTheDocument();
    const row = await within(screen.getByTestId("help-table")).findByRole("row", { name: /Time and daily quotas/ });
    expect(row).toBeInTheDocument();
  });

  it("saving without a change sends nothing", async () => {
    const { api } = helpBackend();
    const dialog = await openEditor();
    await userEvent.click(within(dialog).getByRole("button", { name: "保存" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(api.callsTo("/admin/help/3")).toHaveLength(0);
  });

  it("shows the server's refusal and keeps what was typed", async () => {
    helpBackend(() => envelopeError(StatusCode.InvalidParams, "参数错误：slug 已被使用"));
    const dialog = await openEditor();
    const slug = within(dialog).getByLabelText("路径标识");
    await userEvent.clear(slug);
    await userEvent.type(slug, "beans");
    await userEvent.click(within(dialog).getByRole("button", { name: "保存" }));
    expect(await screen.findByText("参数错误：slug 已被使用")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("路径标识")).toHaveValue("beans");
    await waitFor(() => expect(within(dialog).getByRole("button", { name: "保存" })).toBeEnabled());
  });
});

describe("replying to feedback", () => {
  function feedbackBackend(reply?: (call: FakeCall) => unknown, start: AdminFeedback = feedback()) {
    const state = { item: start };
    const api = engagementBackend({
      "GET /admin/me": () => adminMe(),
      "GET /admin/feedback": () => page([state.item]),
      "POST /admin/feedback/11/reply":
        reply ??
        ((call: FakeCall) => {
          const { text } = call.body as { text: string };
          state.item = { ...state.item, reply: text, handledAt: "2026-11-26T02:00:00.000Z" };
          return { feedback: state.item, sent: true };
        }),
      "POST /admin/feedback/11/handle": (call: FakeCall) => {
        const { handled } = call.body as { handled: boolean };
        state.item = { ...state.item, handledAt: handled ? "2026-11-26T02:00:00.000Z" : null };
        return state.item;
      },
    });
    return { api, state };
  }

  async function openReply() {
    renderApp("/admin/content?tab=feedback");
    const table = await screen.findByTestId("feedback-table", {}, { timeout: 5000 });
    const row = within(table).getByRole("row", { name: /上传 2GB 的文件失败了/ });
    expect(within(row).getByText("未处理")).toBeInTheDocument();
    await userEvent.click(within(row).getByRole("button", { name: "回复" }));
    return screen.findByRole("dialog", { name: "回复反馈 #11" });
  }

  it("needs a text, sends it, and shows the feedback handled with the reply", async () => {
    const { api } = feedbackBackend();
    const dialog = await openReply();
    expect(dialog).toHaveTextContent("问题反馈 / 上传失败 · 13800000007");
    await userEvent.click(within(dialog).getByRole("button", { name: "发送回复" }));
    expect(within(dialog).getByLabelText("回复（中文）")).toHaveAttribute("aria-invalid", "true");
    expect(api.callsTo("/reply")).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText("回复（中文）"), " 已修复，请重试 ");
    await userEvent.type(within(dialog).getByLabelText("回复（英文，可选）"), "Fixed, please retry");
    await userEvent.dblClick(within(dialog).getByRole("button", { name: "发送回复" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(api.callsTo("/reply").map((c) => c.body)).toEqual([
      { text: "已修复，请重试", textEn: "Fixed, please retry" },
    ]);
    expect(await screen.findByText("回复已发送到用户的消息中心")).toBeInTheDocument();

    const row = within(screen.getByTestId("feedback-table")).getByRole("row", { name: /上传 2GB/ });
    await waitFor(() => expect(within(row).getByText("已处理")).toBeInTheDocument());
    expect(row).toHaveTextContent("已回复：已修复，请重试");
    expect(within(row).getByRole("button", { name: "标为未处理" })).toBeInTheDocument();
  });

  it("shows the server's refusal of a reply and keeps the dialog", async () => {
    feedbackBackend(() => envelopeError(StatusCode.InvalidParams, "参数错误：text 与已发送的回复不同"));
    const dialog = await openReply();
    await userEvent.type(within(dialog).getByLabelText("回复（中文）"), "另一条回复");
    await userEvent.click(within(dialog).getByRole("button", { name: "发送回复" }));
    expect(await screen.findByText("参数错误：text 与已发送的回复不同")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("回复（中文）")).toHaveValue("另一条回复");
  });

  it("a visitor's feedback can only be marked handled", async () => {
    const { api } = feedbackBackend(undefined, feedback({ userId: null, phone: "", nickName: "" }));
    const dialog = await openReply();
    expect(dialog).toHaveTextContent("该反馈来自未登录用户");
    expect(within(dialog).queryByRole("button", { name: "发送回复" })).toBeNull();
    await userEvent.click(within(dialog).getByRole("button", { name: "标为已处理" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(api.callsTo("/handle").map((c) => c.body)).toEqual([{ handled: true }]);
    const row = within(screen.getByTestId("feedback-table")).getByRole("row", { name: /上传 2GB/ });
    await waitFor(() => expect(within(row).getByText("已处理")).toBeInTheDocument());
  });
});
