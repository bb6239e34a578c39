import { cleanup, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { envelopeError, fakeApi } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";

const ADD = "POST /api/v1/satisfaction/add";
const anonymous = { "GET /api/v3/user/virtual_login": () => ({ tempCode: "t", firstSeen: true }) };

beforeEach(() => setLang("zh"));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("/tranSatis", () => {
  it("sends the rating, the comment and the record's fileId; thanks only once stored", async () => {
    let answer: (value: unknown) => void = () => {};
    const api = fakeApi({
      ...anonymous,
      [ADD]: () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    renderApp("/tranSatis?fileId=42");
    const submit = await screen.findByTestId("satisfaction-submit");
    expect(submit).toBeDisabled();
    await userEvent.click(screen.getByRole("radio", { name: "满意" }));
    await userEvent.type(screen.getByRole("textbox"), "说话人分得很准");
    await userEvent.click(submit);

    // sending: the button says so and cannot be pressed again; no thanks yet
    await waitFor(() => expect(submit).toHaveTextContent("提交中…"));
    expect(submit).toBeDisabled();
    expect(screen.queryByText("感谢你的反馈！")).toBeNull();
    expect(api.callsTo("/satisfaction/add")).toHaveLength(1);
    expect(api.callsTo("/satisfaction/add")[0]!.body).toEqual({ rating: 4, comment: "说话人分得很准", fileId: 42 });

    answer({ id: 7, createTime: 1_763_800_000 });
    expect(await screen.findByRole("status")).toHaveTextContent("感谢你的反馈！");
  });

  it("sends no fileId without one (or with a malformed one), and no empty comment", async () => {
    const api = fakeApi({ ...anonymous, [ADD]: () => ({ id: 1, createTime: 1 }) });
    renderApp("/tranSatis?fileId=abc");
    await userEvent.click(await screen.findByRole("radio", { name: "非常不满意" }));
    await userEvent.click(screen.getByTestId("satisfaction-submit"));
    await screen.findByText("感谢你的反馈！");
    expect(api.callsTo("/satisfaction/add")[0]!.body).toEqual({ rating: 1 });
  });

  it("says when the rating was not stored, keeps it, and sends it again", async () => {
    let fail = true;
    const api = fakeApi({
      ...anonymous,
      [ADD]: () => (fail ? envelopeError(10003, "操作过于频繁，请稍后再试") : { id: 2, createTime: 2 }),
    });
    renderApp("/tranSatis");
    await userEvent.click(await screen.findByRole("radio", { name: "非常满意" }));
    await userEvent.click(screen.getByTestId("satisfaction-submit"));
    expect(await screen.findByTestId("satisfaction-error")).toHaveTextContent("操作过于频繁，请稍后再试");
    expect(screen.queryByText("感谢你的反馈！")).toBeNull();
    expect(screen.getByRole("radio", { name: "非常满意" })).toBeChecked();

    fail = false;
    await userEvent.click(screen.getByTestId("satisfaction-submit"));
    expect(await screen.findByText("感谢你的反馈！")).toBeInTheDocument();
    expect(api.callsTo("/satisfaction/add").map((c) => c.body)).toEqual([{ rating: 5 }, { rating: 5 }]);
  });

  it("speaks English", async () => {
    setLang("en");
    fakeApi(anonymous);
    renderApp("/tranSatis");
    expect(await screen.findByRole("heading", { name: "Were you happy with this transcript?" })).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Very happy" })).toBeInTheDocument();
    expect(screen.getByTestId("satisfaction-submit")).toHaveTextContent("Send rating");
  });
});
