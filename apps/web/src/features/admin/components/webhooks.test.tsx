import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { WebhookCreated, WebhookEndpoint } from "@yuelu/contracts";
import { StatusCode } from "@yuelu/contracts/constants";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { engagementBackend } from "@/testing/engagement-fixtures.ts";
import { envelopeError, type FakeCall, signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";
import { adminMe, webhookDelivery, webhookEndpoint } from "../testing/fake-admin.ts";

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => vi.unstubAllGlobals());

const REFUSED = "缺少必要参数或参数错误：url（不能指向内网或本机地址）";

/** Operator-wide endpoints kept in memory; a URL on 127.0.0.1 is refused as the API does (10002). */
function webhooksBackend(initial: WebhookEndpoint[] = []) {
  const hooks = [...initial];
  const deliveries = [
    webhookDelivery({ id: 71 }),
    webhookDelivery({
      id: 70,
      status: "failed",
      eventType: "transcription.finished",
      attempts: 1,
      lastStatusCode: null,
      attemptList: [
        { attempt: 1, time: 1_795_000_000, durationMs: 10_000, statusCode: null, responseBody: "", error: "timeout" },
      ],
    }),
  ];
  const api = engagementBackend({
    "GET /admin/me": () => adminMe(),
    "GET /admin/webhooks": () => ({ total: hooks.length, limit: 10, list: hooks }),
    "POST /admin/webhooks": async (call: FakeCall) => {
      await new Promise((r) => setTimeout(r, 20));
      const body = call.body as { url: string; events: string[]; description: string };
      if (new URL(body.url).hostname === "127.0.0.1") return envelopeError(StatusCode.InvalidParams, REFUSED);
      const created: WebhookCreated = { ...webhookEndpoint({ id: 9, ...body }), secret: "whsec_NEW_SECRET" };
      const { secret: _secret, ...endpoint } = created;
      hooks.push(endpoint);
      return created;
    },
    "POST /admin/webhooks/update": (call: FakeCall) => {
      const { id, enabled } = call.body as { id: number; enabled: boolean };
      const hook = hooks.find((h) => h.id === id) as WebhookEndpoint;
      hook.enabled = enabled;
      return hook;
    },
    "POST /admin/webhooks/delete": (call: FakeCall) => {
      const { id } = call.body as { id: number };
      hooks.splice(
        hooks.findIndex((h) => h.id === id),
        1,
      );
      return { id };
    },
    "POST /admin/webhooks/secret": (call: FakeCall) => ({
      id: (call.body as { id: number }).id,
      secret: "whsec_AGAIN",
    }),
    "GET /admin/webhooks/deliveries": (call: FakeCall) => {
      const pageSize = Number(call.url.searchParams.get("pageSize"));
      return { total: deliveries.length, page: 1, pageSize, list: deliveries.slice(0, pageSize) };
    },
    "POST /admin/webhooks/resend": () => webhookDelivery({ id: 71, status: "pending" }),
    "POST /admin/webhooks/test": () => webhookDelivery({ id: 72, status: "pending", eventType: "webhook.test" }),
  });
  const posts = (path: string) => api.calls.filter((c) => c.method === "POST" && c.url.pathname.endsWith(path));
  return { api, hooks, posts };
}

async function openPage() {
  renderApp("/admin/webhooks");
  return screen.findByTestId("admin-webhooks-section", {}, { timeout: 5000 });
}

describe("operator-wide webhooks", () => {
  it("creates an endpoint: the body sent, its secret shown once with a warning, then listed", async () => {
    const { posts } = webhooksBackend();
    const section = await openPage();
    expect(await within(section).findByText("还没有全局 Webhook 端点")).toBeInTheDocument();

    await userEvent.click(within(section).getByTestId("webhook-create"));
    const form = await screen.findByTestId("webhook-form");
    // not a URL: refused here, nothing sent
    await userEvent.type(within(form).getByTestId("webhook-url"), "hooks.example.com");
    await userEvent.click(within(form).getByTestId("webhook-submit"));
    expect(within(form).getByText("请输入 http(s) 开头的完整地址")).toBeInTheDocument();
    expect(posts("/admin/webhooks")).toHaveLength(0);

    await userEvent.clear(within(form).getByTestId("webhook-url"));
    await userEvent.type(within(form).getByTestId("webhook-url"), " https://hooks.example.com/in ");
    await userEvent.type(within(form).getByTestId("webhook-description"), "ERP");
    await userEvent.click(within(form).getByRole("checkbox", { name: /订单已支付/ }));
    await userEvent.dblClick(within(form).getByTestId("webhook-submit"));

    const secret = await screen.findByTestId("webhook-secret");
    expect(secret).toHaveTextContent("whsec_NEW_SECRET");
    const dialog = screen.getByRole("dialog", { name: "端点已添加" });
    expect(within(dialog).getByRole("note")).toHaveTextContent("webhook-signature");
    expect(within(dialog).getByTestId("webhook-secret-copy")).toBeInTheDocument();
    expect(posts("/admin/webhooks")).toHaveLength(1);
    expect(posts("/admin/webhooks")[0]?.body).toEqual({
      url: "https://hooks.example.com/in",
      description: "ERP",
      events: ["transcription.finished", "order.paid"],
    });

    await userEvent.click(within(dialog).getByTestId("webhook-secret-done"));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.queryByText("whsec_NEW_SECRET")).toBeNull();
    const row = await screen.findByTestId("webhook-9");
    expect(row).toHaveTextContent("https://hooks.example.com/in");
    expect(row).toHaveTextContent("转写完成, 订单已支付");
    expect(within(row).getByTestId("webhook-state")).toHaveTextContent("已启用");
  });

  it("shows the API's refusal of a private URL (10002) in the form, which stays open", async () => {
    const { posts } = webhooksBackend();
    const section = await openPage();
    await userEvent.click(await within(section).findByTestId("webhook-create"));
    const form = await screen.findByTestId("webhook-form");
    await userEvent.type(within(form).getByTestId("webhook-url"), "http://127.0.0.1:8080/hook");
    await userEvent.click(within(form).getByTestId("webhook-submit"));
    expect(await within(form).findByTestId("webhook-form-error")).toHaveTextContent(REFUSED);
    expect(posts("/admin/webhooks")).toHaveLength(1);
    expect(screen.queryByTestId("webhook-secret")).toBeNull();
    expect(within(form).getByTestId("webhook-submit")).toBeEnabled();
  });

  it("switches off, shows the secret after a confirmation, deletes after one: the bodies sent", async () => {
    const { posts } = webhooksBackend([webhookEndpoint({ id: 1 }), webhookEndpoint({ id: 2, enabled: false })]);
    await openPage();
    const row = await screen.findByTestId("webhook-1");
    expect(await within(row).findByTestId("last-delivery-1")).toHaveTextContent("已送达");

    await userEvent.click(within(row).getByTestId("toggle-1"));
    await waitFor(() => expect(within(row).getByTestId("webhook-state")).toHaveTextContent("已停用"));
    expect(posts("/admin/webhooks/update").map((c) => c.body)).toEqual([{ id: 1, enabled: false }]);
    await userEvent.click(within(screen.getByTestId("webhook-2")).getByTestId("toggle-2"));
    await waitFor(() => expect(posts("/admin/webhooks/update")).toHaveLength(2));
    expect(posts("/admin/webhooks/update")[1]?.body).toEqual({ id: 2, enabled: true });

    // the secret again: asked first (it is audited)
    await userEvent.click(within(row).getByTestId("secret-1"));
    const ask = await screen.findByRole("dialog", { name: "查看签名密钥？" });
    expect(ask).toHaveTextContent("操作日志");
    expect(posts("/admin/webhooks/secret")).toHaveLength(0);
    await userEvent.click(within(ask).getByTestId("confirm"));
    expect(await screen.findByTestId("webhook-secret")).toHaveTextContent("whsec_AGAIN");
    expect(posts("/admin/webhooks/secret").map((c) => c.body)).toEqual([{ id: 1 }]);
    await userEvent.click(screen.getByTestId("webhook-secret-done"));

    await userEvent.click(within(row).getByTestId("delete-1"));
    const confirm = await screen.findByRole("dialog", { name: "删除这个端点？" });
    expect(confirm).toHaveTextContent("https://hooks.example.com/yuelu/1");
    await userEvent.dblClick(within(confirm).getByTestId("confirm"));
    await waitFor(() => expect(screen.queryByTestId("webhook-1")).toBeNull());
    expect(posts("/admin/webhooks/delete").map((c) => c.body)).toEqual([{ id: 1 }]);
  });

  it("lists an endpoint's deliveries with their attempts; re-sends one and sends a test event", async () => {
    const { posts } = webhooksBackend([webhookEndpoint({ id: 1 })]);
    await openPage();
    await userEvent.click(await screen.findByTestId("deliveries-1"));
    const dialog = await screen.findByRole("dialog", { name: "投递记录" });
    const delivered = await within(dialog).findByTestId("delivery-71");
    expect(within(delivered).getByTestId("delivery-status")).toHaveTextContent("已送达");
    expect(delivered).toHaveTextContent("订单已支付");
    expect(delivered).toHaveTextContent("尝试 2 次");
    const attempts = within(delivered).getAllByTestId("attempt");
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toHaveTextContent("第 2 次");
    expect(attempts[0]).toHaveTextContent("200");
    expect(attempts[0]).toHaveTextContent("85 毫秒");
    expect(attempts[1]).toHaveTextContent("500");
    expect(attempts[1]).toHaveTextContent("1234 毫秒");
    expect(attempts[1]).toHaveTextContent("boom");
    const failed = within(dialog).getByTestId("delivery-70");
    expect(within(failed).getByTestId("delivery-status")).toHaveTextContent("失败");
    expect(within(failed).getByTestId("attempt")).toHaveTextContent("无响应");
    expect(within(failed).getByTestId("attempt")).toHaveTextContent("timeout");

    await userEvent.click(within(failed).getByTestId("resend-70"));
    await waitFor(() => expect(posts("/admin/webhooks/resend")).toHaveLength(1));
    expect(posts("/admin/webhooks/resend")[0]?.body).toEqual({ deliveryId: 70 });

    await userEvent.click(within(dialog).getByTestId("deliveries-send-test"));
    await waitFor(() => expect(posts("/admin/webhooks/test")).toHaveLength(1));
    expect(posts("/admin/webhooks/test")[0]?.body).toEqual({ id: 1 });
  });
});
