import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { envelopeError, type FakeCall, fakeApi } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";

const EVIL = [
  "Intro <b>bold?</b> and **really bold**",
  "",
  "<script>window.__pwned = 'script'</script>",
  "",
  '<img src="x" onerror="window.__pwned = \'img\'">',
  "",
  '<a href="javascript:window.__pwned=1" onclick="window.__pwned=2">link</a> [click](javascript:window.__pwned=3)',
  "",
  "## Steps",
  "",
  "1. first step",
  "2. second step",
  "",
  "See [the beans](/helpDocument?doc=beans) or [the site](https://example.com).",
].join("\n");

const CATEGORIES = [
  { id: 1, name: "功能建议", parentId: 0, level: 0 },
  { id: 2, name: "问题反馈", parentId: 0, level: 0 },
  { id: 21, name: "转写不准确", parentId: 2, level: 1 },
  { id: 22, name: "上传失败", parentId: 2, level: 1 },
];

function helpBackend(routes: Parameters<typeof fakeApi>[0] = {}) {
  return fakeApi({
    "GET /help_document/get_title": () => [
      { id: 1, slug: "evil", title: "危险文档" },
      { id: 2, slug: "beans", title: "什么是悦豆" },
    ],
    "GET /help_document/get": (call: FakeCall) =>
      call.url.searchParams.get("slug") === "evil"
        ? { id: 1, slug: "evil", title: "危险文档", content: EVIL }
        : { id: 2, slug: "beans", title: "什么是悦豆", content: "悦豆不可购买" },
    "GET /feedback/get_question_category": () => CATEGORIES,
    "POST /feedback/add": () => ({ id: 9, images: 1 }),
    "GET /api/v3/user/virtual_login": () => ({ tempCode: "t_visitor", firstSeen: false }),
    ...routes,
  });
}

const png = (name: string, size = 100) => new File([new Uint8Array(size)], name, { type: "image/png" });

beforeEach(() => setLang("zh"));
afterEach(() => {
  vi.unstubAllGlobals();
  delete (window as { __pwned?: unknown }).__pwned;
});

describe("/helpDocument", () => {
  it("renders a document's Markdown safely: no script, element, handler or javascript: link from its HTML", async () => {
    helpBackend();
    renderApp("/helpDocument");
    const text = await screen.findByTestId("help-text", {}, { timeout: 5000 });
    expect(text).toHaveTextContent("<script>window.__pwned = 'script'</script>");
    expect(text).toHaveTextContent('<img src="x" onerror="window.__pwned = \'img\'">');
    expect(text.querySelector("script, img, b, [onerror], [onclick], a[href^='javascript' i]")).toBeNull();
    expect(within(text).getByText("really bold").tagName).toBe("STRONG");
    expect(within(text).getByRole("heading", { level: 4, name: "Steps" })).toBeInTheDocument();
    expect(within(text).getByRole("list")).toHaveTextContent("first step");
    expect(within(text).getAllByRole("listitem")).toHaveLength(2);
    expect(within(text).getByRole("link", { name: "the site" })).toHaveAttribute("rel", "noopener noreferrer");
    expect(within(text).getByRole("link", { name: "the site" })).toHaveAttribute("target", "_blank");
    expect(within(text).queryByRole("link", { name: "click" })).toBeNull();
    await new Promise((r) => setTimeout(r, 50));
    expect((window as { __pwned?: unknown }).__pwned).toBeUndefined();

    // a link to another document moves within the app
    await userEvent.click(within(text).getByRole("link", { name: "the beans" }));
    expect(await screen.findByText("悦豆不可购买")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "危险文档" }));
    expect(await screen.findByText("first step")).toBeInTheDocument();
  });

  it("a failed load shows an alert (spec §8)", async () => {
    helpBackend({ "GET /help_document/get_title": () => envelopeError(99999, "系统错误") });
    renderApp("/helpDocument");
    const alerts = await screen.findAllByRole("alert");
    expect(alerts.map((a) => a.textContent).join(" ")).toContain("帮助文档加载失败");
    expect(await screen.findByText("系统错误")).toBeInTheDocument(); // the toast
  });
});

describe("feedback", () => {
  it("checks the form, takes images only (at most 3, 5 MB each) and sends it as multipart", async () => {
    const api = helpBackend();
    renderApp("/helpDocument");
    await userEvent.click(await screen.findByTestId("feedback-open"));
    const dialog = await screen.findByRole("dialog", { name: "意见反馈" });
    await within(dialog).findByTestId("feedback-categories");

    await userEvent.click(within(dialog).getByTestId("feedback-submit"));
    expect(within(dialog).getByText("请选择问题类型")).toBeInTheDocument();
    expect(within(dialog).getByText("请填写问题描述")).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "问题反馈" }));
    expect(within(dialog).getByText("请选择具体问题")).toBeInTheDocument();
    await userEvent.click(within(await within(dialog).findByTestId("feedback-subcategories")).getByText("上传失败"));
    await userEvent.type(within(dialog).getByTestId("feedback-content"), "上传 2GB 的文件失败了");
    await userEvent.type(within(dialog).getByTestId("feedback-contact"), "me@example.com");

    const input = within(dialog).getByTestId("feedback-images") as HTMLInputElement;
    await userEvent.upload(input, [png("a.png")]);
    expect(within(dialog).getAllByTestId("feedback-shot")).toHaveLength(1);
    // not an image, too large: refused here
    const pdf = new File(["%PDF"], "report.pdf", { type: "application/pdf" });
    await userEvent.upload(input, [pdf], { applyAccept: false });
    expect(within(dialog).getByTestId("feedback-image-error")).toHaveTextContent("只能上传图片");
    await userEvent.upload(input, [png("huge.png", 5 * 1024 * 1024 + 1)]);
    expect(within(dialog).getByTestId("feedback-image-error")).toHaveTextContent("图片不能超过 5.0MB：huge.png");
    await userEvent.upload(input, [png("b.png"), png("c.png"), png("d.png")]);
    expect(within(dialog).getAllByTestId("feedback-shot")).toHaveLength(3);
    expect(within(dialog).getByTestId("feedback-image-error")).toHaveTextContent("最多上传 3 张截图");
    expect(within(dialog).queryByTestId("feedback-images")).toBeNull();
    await userEvent.click(within(dialog).getByRole("button", { name: "移除截图 c.png" }));
    expect(within(dialog).getAllByTestId("feedback-shot")).toHaveLength(2);

    await userEvent.click(within(dialog).getByTestId("feedback-submit"));
    expect(await within(dialog).findByTestId("feedback-sent")).toHaveTextContent("感谢你的反馈");
    const form = api.callsTo("/feedback/add")[0]!.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect(form.get("categoryId")).toBe("22");
    expect(form.get("content")).toBe("上传 2GB 的文件失败了");
    expect(form.get("contact")).toBe("me@example.com");
    expect((form.getAll("images") as File[]).map((f) => f.name)).toEqual(["a.png", "b.png"]);
  });

  it("a failed load of the categories shows an alert", async () => {
    helpBackend({ "GET /feedback/get_question_category": () => envelopeError(99999, "系统错误") });
    renderApp("/helpDocument");
    await userEvent.click(await screen.findByTestId("feedback-open"));
    const dialog = await screen.findByRole("dialog", { name: "意见反馈" });
    await waitFor(() => expect(within(dialog).getByRole("alert")).toHaveTextContent("问题类型加载失败"));
  });
});
