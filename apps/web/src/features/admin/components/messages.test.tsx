import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AdminMessageSend, AdminSentMessage } from "@yuelu/contracts";
import { StatusCode } from "@yuelu/contracts/constants";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { engagementBackend } from "@/testing/engagement-fixtures.ts";
import { envelopeError, type FakeCall, signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";
import { adminMe, page } from "../testing/fake-admin.ts";

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => vi.unstubAllGlobals());

/** A backend that keeps what was sent, once per requestId, and lists it; `fail` answers an error first. */
function messagesBackend({ fail = false }: { fail?: boolean } = {}) {
  const sent: AdminSentMessage[] = [];
  const seen = new Set<string>();
  let failures = fail ? 1 : 0;
  const api = engagementBackend({
    "GET /admin/me": () => adminMe(),
    "GET /admin/messages": () => page(sent),
    "POST /admin/messages": async (call: FakeCall) => {
      await new Promise((r) => setTimeout(r, 30));
      if (failures > 0) {
        failures -= 1;
        return envelopeError(StatusCode.SystemError, "发送失败，请重试");
      }
      const body = call.body as AdminMessageSend & { phone?: string; userId?: number };
      const created = !seen.has(body.requestId);
      seen.add(body.requestId);
      if (created) {
        sent.unshift({
          notifyId: 100 + sent.length,
          audience: body.audience,
          userId: body.audience === "user" ? 7 : null,
          phone: body.phone ?? "",
          title: body.title,
          text: body.text,
          titleEn: body.titleEn ?? "",
          textEn: body.textEn ?? "",
          sender: body.sender ?? "悦录",
          sentAt: "2026-11-26T02:00:00.000Z",
          reads: 0,
          recipients: body.audience === "all" ? 120 : 1,
        });
      }
      return { notifyId: 100, created };
    },
  });
  return { api, sent };
}

const posts = (api: ReturnType<typeof messagesBackend>["api"]) =>
  api.callsTo("/admin/messages").filter((c) => c.method === "POST");

async function compose(form: HTMLElement, title: string, text: string) {
  await userEvent.type(within(form).getByTestId("message-title"), title);
  await userEvent.type(within(form).getByTestId("message-text"), text);
}

describe("sending a message", () => {
  it("to one user by phone: the body sent, one request on a double click, then listed; a new message a new key", async () => {
    const { api } = messagesBackend();
    renderApp("/admin/messages");
    const form = await screen.findByTestId("message-form", {}, { timeout: 5000 });
    await screen.findByText("暂无数据", {}, { timeout: 5000 });

    // nobody named, nothing typed: refused here
    await userEvent.click(within(form).getByTestId("message-send"));
    expect(within(form).getByText("请输入用户 ID 或 11 位手机号")).toBeInTheDocument();
    expect(within(form).getByText("请填写中文标题和内容")).toBeInTheDocument();
    expect(posts(api)).toHaveLength(0);

    await userEvent.type(within(form).getByTestId("message-user"), "138-0000-0007");
    await compose(form, " 维护通知 ", "今晚 23 点维护");
    await userEvent.type(within(form).getByLabelText("标题（英文，可选）"), "Maintenance");
    await userEvent.dblClick(within(form).getByTestId("message-send"));
    expect(await screen.findByText("已发送", { selector: "[data-sonner-toast] *" })).toBeInTheDocument();
    expect(posts(api)).toHaveLength(1);
    const body = posts(api)[0]?.body as AdminMessageSend & { phone?: string };
    expect(body).toEqual({
      requestId: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/),
      audience: "user",
      phone: "13800000007",
      title: "维护通知",
      text: "今晚 23 点维护",
      titleEn: "Maintenance",
      textEn: "",
    });
    // the form is ready for the next message, and the list shows this one
    expect(within(form).getByTestId("message-title")).toHaveValue("");
    const row = await within(await screen.findByTestId("sent-table")).findByText("维护通知");
    expect(row).toBeInTheDocument();
    expect(screen.getByTestId("sent-table")).toHaveTextContent("13800000007");

    await compose(form, "第二条", "内容");
    await userEvent.click(within(form).getByTestId("message-send"));
    await waitFor(() => expect(posts(api)).toHaveLength(2));
    expect((posts(api)[1]?.body as AdminMessageSend | undefined)?.requestId).not.toBe(body.requestId);
  });

  it("to everyone only after its confirmation: one request on a double click; a failure keeps the key for the retry", async () => {
    const { api } = messagesBackend({ fail: true });
    renderApp("/admin/messages");
    const form = await screen.findByTestId("message-form", {}, { timeout: 5000 });
    await userEvent.click(within(form).getByRole("radio", { name: "所有用户" }));
    expect(within(form).queryByTestId("message-user")).toBeNull();
    await compose(form, "新功能上线", "支持 5 小时的文件");
    await userEvent.click(within(form).getByTestId("message-send"));

    // a question first; cancelling sends nothing
    let confirm = await screen.findByRole("dialog", { name: "发送给所有用户？" });
    expect(confirm).toHaveTextContent("“新功能上线”将出现在每位用户");
    await userEvent.click(within(confirm).getByRole("button", { name: "取消" }));
    expect(posts(api)).toHaveLength(0);

    await userEvent.click(within(form).getByTestId("message-send"));
    confirm = await screen.findByRole("dialog", { name: "发送给所有用户？" });
    await userEvent.dblClick(within(confirm).getByTestId("confirm"));
    // the server failed: the operator is told, the question stays, nothing is cleared
    expect(await screen.findByText("发送失败，请重试")).toBeInTheDocument();
    expect(posts(api)).toHaveLength(1);
    expect(within(form).getByTestId("message-title")).toHaveValue("新功能上线");

    // the retry is the same message: the same requestId
    await waitFor(() => expect(within(confirm).getByTestId("confirm")).toBeEnabled());
    await userEvent.click(within(confirm).getByTestId("confirm"));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    const [first, second] = posts(api).map((c) => c.body as AdminMessageSend);
    expect(posts(api)).toHaveLength(2);
    expect(second).toEqual({
      requestId: first?.requestId,
      audience: "all",
      title: "新功能上线",
      text: "支持 5 小时的文件",
      titleEn: "",
      textEn: "",
    });
    const table = await screen.findByTestId("sent-table");
    expect(within(table).getByText("所有用户")).toBeInTheDocument();
    expect(table).toHaveTextContent("0 / 120");
  });
});
