import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ApiKey, WebhookDelivery, WebhookEndpoint } from "@yuelu/contracts";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { engagementBackend } from "@/testing/engagement-fixtures.ts";
import { envelopeError, type FakeCall, signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";

/** /personalInfo?menu=developer: API keys and webhooks, against a fake backend. */

// the section is a lazy chunk: load it once here, so no test waits for its first transform
beforeAll(() => import("./integrations-settings.tsx"), 30_000);
beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => vi.unstubAllGlobals());

const KEY = "yl_7fQ2xAbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab";

function keyRow(over: Partial<ApiKey> & Pick<ApiKey, "id">): ApiKey {
  return { name: `key ${over.id}`, prefix: "yl_7fQ2x", createTime: 1_735_700_000, lastUsedTime: 0, ...over };
}

function hookRow(over: Partial<WebhookEndpoint> & Pick<WebhookEndpoint, "id">): WebhookEndpoint {
  return {
    url: `https://hooks.example/${over.id}`,
    description: "",
    events: ["order.paid"],
    enabled: true,
    createTime: 1_735_700_000,
    updateTime: 1_735_700_000,
    ...over,
  };
}

/** The backend's API keys and webhooks, kept in memory as the real one keeps them in its tables. */
function integrationsBackend(
  initial: { keys?: ApiKey[]; hooks?: WebhookEndpoint[] } = {},
  routes: Record<string, (call: FakeCall) => unknown> = {},
) {
  let keys = [...(initial.keys ?? [])];
  let hooks = [...(initial.hooks ?? [])];
  return engagementBackend({
    "GET /api/v1/api_keys/list": () => ({ total: keys.length, limit: 10, list: keys }),
    "POST /api/v1/api_keys/create": (call: FakeCall) => {
      const { name } = call.body as { name: string };
      const id = 100 + keys.length;
      keys = [keyRow({ id, name }), ...keys];
      return { id, name, key: KEY };
    },
    "POST /api/v1/api_keys/revoke": (call: FakeCall) => {
      const { id } = call.body as { id: number };
      keys = keys.filter((k) => k.id !== id);
      return { id };
    },
    "GET /api/v1/webhooks/list": () => ({ total: hooks.length, limit: 10, list: hooks }),
    "POST /api/v1/webhooks/create": (call: FakeCall) => {
      const body = call.body as { url: string; events: string[]; description: string };
      if (body.url.includes("10.0.0.1")) {
        return envelopeError(
          10002,
          "缺少必要参数或参数错误：url（指向内网、本机或链路本地地址，本服务器不会调用这类地址）",
        );
      }
      const row = hookRow({ id: 200 + hooks.length, ...body });
      hooks = [row, ...hooks];
      return { ...row, secret: "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTAx" };
    },
    "POST /api/v1/webhooks/update": (call: FakeCall) => {
      const { id, enabled } = call.body as { id: number; enabled: boolean };
      hooks = hooks.map((h) => (h.id === id ? { ...h, enabled } : h));
      return hooks.find((h) => h.id === id);
    },
    ...routes,
  });
}

describe("API keys", () => {
  it("shows a new key once, with a copy button and a warning, then only its prefix", async () => {
    const user = userEvent.setup();
    const api = integrationsBackend({ keys: [keyRow({ id: 1, name: "备份脚本", lastUsedTime: 1_735_787_045 })] });
    renderApp("/personalInfo?menu=developer");
    const existing = await screen.findByTestId("api-key-1", {}, { timeout: 3000 });
    expect(existing).toHaveTextContent("备份脚本");
    expect(existing).toHaveTextContent("yl_7fQ2x…");
    expect(within(screen.getByTestId("api-keys")).getByText(/1 \/ 10 个/)).toBeInTheDocument();

    await user.click(screen.getByTestId("create-key"));
    const naming = await screen.findByRole("dialog", { name: "新建密钥" });
    await user.click(within(naming).getByRole("button", { name: "确定" }));
    expect(within(naming).getByRole("alert")).toHaveTextContent("名称为 1–30 个字");
    await user.type(within(naming).getByRole("textbox"), "夜间导出");
    await user.click(within(naming).getByRole("button", { name: "确定" }));

    const shown = await screen.findByRole("dialog", { name: "密钥已创建" });
    expect(within(shown).getByTestId("secret-value")).toHaveTextContent(KEY);
    expect(shown).toHaveTextContent("关闭后将无法再次查看");
    await user.click(within(shown).getByTestId("secret-copy"));
    expect(await navigator.clipboard.readText()).toBe(KEY);
    expect(within(shown).getByTestId("secret-copy")).toHaveTextContent("已复制");
    expect(api.callsTo("/api_keys/create")[0]!.body).toEqual({ name: "夜间导出" });

    await user.click(within(shown).getByTestId("secret-done"));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(await screen.findByTestId("api-key-101")).toHaveTextContent("夜间导出");
    expect(document.body).not.toHaveTextContent(KEY);
  });

  it("revokes a key after a confirmation", async () => {
    const user = userEvent.setup();
    const api = integrationsBackend({ keys: [keyRow({ id: 7, name: "旧密钥" })] });
    renderApp("/personalInfo?menu=developer");
    await user.click(await screen.findByTestId("revoke-7", {}, { timeout: 3000 }));
    const confirm = await screen.findByRole("dialog", { name: "撤销密钥「旧密钥」？" });
    expect(api.callsTo("/api_keys/revoke")).toHaveLength(0);
    await user.click(within(confirm).getByTestId("confirm"));
    await waitFor(() => expect(screen.queryByTestId("api-key-7")).not.toBeInTheDocument());
    expect(api.callsTo("/api_keys/revoke")[0]!.body).toEqual({ id: 7 });
    expect(await screen.findByText("还没有 API 密钥")).toBeInTheDocument();
  });
});

describe("webhooks", () => {
  it("lists endpoints and adds one: checked here, refused by the server when private, its secret shown", async () => {
    const user = userEvent.setup();
    const api = integrationsBackend({
      hooks: [
        hookRow({ id: 1, url: "https://ci.example/hook", enabled: false, events: ["speech.ready", "order.paid"] }),
      ],
    });
    renderApp("/personalInfo?menu=developer");
    const row = await screen.findByTestId("webhook-1", {}, { timeout: 3000 });
    expect(row).toHaveTextContent("https://ci.example/hook");
    expect(row).toHaveTextContent("语音合成完成、订单已支付");
    expect(within(row).getByTestId("hook-state")).toHaveTextContent("已停用");

    await user.click(screen.getByTestId("create-hook"));
    const form = await screen.findByRole("dialog", { name: "添加地址" });
    await user.type(within(form).getByTestId("hook-url"), "ftp://files.example");
    await user.click(within(form).getByTestId("hook-submit"));
    expect(within(form).getByRole("alert")).toHaveTextContent("以 http:// 或 https:// 开头");
    expect(api.callsTo("/webhooks/create")).toHaveLength(0);

    await user.clear(within(form).getByTestId("hook-url"));
    await user.type(within(form).getByTestId("hook-url"), "http://10.0.0.1/hook");
    await user.click(within(form).getByTestId("hook-submit"));
    expect(await within(form).findByRole("alert")).toHaveTextContent("内网");

    await user.clear(within(form).getByTestId("hook-url"));
    await user.type(within(form).getByTestId("hook-url"), "https://my.example/yuelu");
    await user.type(within(form).getByTestId("hook-description"), "生产");
    await user.click(within(form).getByRole("checkbox", { name: /订单已支付/ }));
    await user.click(within(form).getByTestId("hook-submit"));
    const created = await screen.findByRole("dialog", { name: "Webhook 已添加" });
    expect(within(created).getByTestId("secret-value")).toHaveTextContent(/^whsec_/);
    expect(api.callsTo("/webhooks/create").at(-1)!.body).toEqual({
      url: "https://my.example/yuelu",
      description: "生产",
      events: ["transcription.finished", "order.paid"],
    });
    await user.click(within(created).getByTestId("secret-done"));
    expect(await screen.findByTestId("webhook-201")).toHaveTextContent("https://my.example/yuelu");

    await user.click(within(screen.getByTestId("webhook-1")).getByTestId("toggle-1"));
    await waitFor(() =>
      expect(within(screen.getByTestId("webhook-1")).getByTestId("hook-state")).toHaveTextContent("已启用"),
    );
    expect(api.callsTo("/webhooks/update")[0]!.body).toEqual({ id: 1, enabled: true });
  });

  it("shows an endpoint's deliveries with their attempts, and re-sends one", async () => {
    const user = userEvent.setup();
    const delivery: WebhookDelivery = {
      id: 9,
      endpointId: 1,
      messageId: "msg_abc",
      eventType: "transcription.finished",
      status: "failed",
      attempts: 2,
      nextAttemptTime: 0,
      lastStatusCode: 500,
      lastError: "",
      createTime: 1_735_700_000,
      finishTime: 1_735_700_100,
      payload: { type: "transcription.finished", data: { fileId: 3 } },
      attemptList: [
        { attempt: 2, time: 1_735_700_100, durationMs: 12, statusCode: 500, responseBody: "boom", error: "" },
        {
          attempt: 1,
          time: 1_735_700_000,
          durationMs: 10_000,
          statusCode: null,
          responseBody: "",
          error: "no answer within 10 s",
        },
      ],
    };
    const api = integrationsBackend(
      { hooks: [hookRow({ id: 1 })] },
      {
        "GET /api/v1/webhooks/deliveries": () => ({ total: 1, page: 1, pageSize: 10, list: [delivery] }),
        "POST /api/v1/webhooks/resend": () => ({ ...delivery, status: "pending" }),
      },
    );
    renderApp("/personalInfo?menu=developer");
    await user.click(await screen.findByTestId("deliveries-1", {}, { timeout: 3000 }));
    const dialog = await screen.findByRole("dialog", { name: "投递记录" });
    const item = await within(dialog).findByTestId("delivery-9");
    expect(within(item).getByTestId("delivery-status")).toHaveTextContent("失败");
    expect(item).toHaveTextContent("转写完成");
    expect(item).toHaveTextContent("2 次尝试");
    const attempts = within(item).getAllByTestId("attempt");
    expect(attempts[0]).toHaveTextContent("500");
    expect(attempts[0]).toHaveTextContent("boom");
    expect(attempts[1]).toHaveTextContent("无响应");
    await user.click(within(item).getByTestId("resend-9"));
    await waitFor(() => expect(api.callsTo("/webhooks/resend")).toHaveLength(1));
    expect(api.callsTo("/webhooks/resend")[0]!.body).toEqual({ deliveryId: 9 });
    expect(api.callsTo("/webhooks/deliveries")[0]!.url.searchParams.get("id")).toBe("1");
  });
});
