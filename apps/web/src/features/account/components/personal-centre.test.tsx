import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { engagementBackend } from "@/testing/engagement-fixtures.ts";
import { type FakeCall, signInCookies } from "@/testing/fake-api.ts";
import { fakeUserInfo } from "@/testing/fake-user.ts";
import { renderApp } from "@/testing/render.tsx";

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => vi.unstubAllGlobals());

describe("/personalInfo?menu=coinDetail", () => {
  it("lists the bean ledger, newest first: reason, amount, balance after, time; paged", async () => {
    const api = engagementBackend(
      {
        "POST /api/v1/store/bean_detail": (call: FakeCall) => {
          const { page } = call.body as { page: number };
          return {
            total: 12,
            list:
              page === 1
                ? [
                    {
                      id: 3,
                      amount: -300,
                      reason: "shop",
                      reasonName: "商城兑换",
                      balanceAfter: 20,
                      createTime: 1_735_787_045,
                    },
                    {
                      id: 2,
                      amount: 300,
                      reason: "gift_code",
                      reasonName: "兑换码",
                      balanceAfter: 320,
                      createTime: 1_735_700_000,
                    },
                  ]
                : [
                    {
                      id: 1,
                      amount: 20,
                      reason: "checkin",
                      reasonName: "每日签到",
                      balanceAfter: 20,
                      createTime: 1_735_600_000,
                    },
                  ],
          };
        },
      },
      { beans: 20 },
    );
    renderApp("/personalInfo?menu=coinDetail");
    const spent = await screen.findByTestId("bean-3");
    expect(spent).toHaveTextContent("商城兑换");
    expect(within(spent).getByTestId("bean-amount")).toHaveTextContent("-300");
    expect(within(screen.getByTestId("bean-2")).getByTestId("bean-amount")).toHaveTextContent("+300");
    expect(screen.getByTestId("bean-2")).toHaveTextContent("320");
    expect(screen.getByTestId("bean-balance")).toHaveTextContent("20");
    expect(api.callsTo("/bean_detail")[0]!.body).toEqual({ page: 1, pageSize: 10 });
    await userEvent.click(screen.getByRole("button", { name: "下一页" }));
    expect(await screen.findByTestId("bean-1")).toHaveTextContent("每日签到");
  });

  it("says so when there is no history yet", async () => {
    engagementBackend({ "POST /api/v1/store/bean_detail": () => ({ total: 0, list: [] }) }, { beans: 0 });
    renderApp("/personalInfo?menu=coinDetail");
    expect(await screen.findByText("还没有悦豆记录，去签到领悦豆吧")).toBeInTheDocument();
  });
});

describe("/personalInfo profile", () => {
  it("edits the nickname (1–20 characters) and picks an avatar", async () => {
    let info = { nickName: "小明", userPhoto: "" };
    const api = engagementBackend({
      "POST /api/v1/user/update_info": (call: FakeCall) => {
        info = { ...info, ...(call.body as object) };
        return { ...fakeUserInfo(), ...info };
      },
    });
    renderApp("/personalInfo");
    expect(await screen.findByTestId("membership")).toHaveTextContent("开通会员");
    expect(screen.getByTestId("quota")).toBeInTheDocument();
    await userEvent.click(await screen.findByTestId("nickname-edit"));
    const input = screen.getByTestId("nickname-input");
    await userEvent.clear(input);
    await userEvent.click(screen.getByTestId("nickname-save"));
    expect(screen.getByRole("alert")).toHaveTextContent("昵称不能为空");
    await userEvent.type(input, "名".repeat(21));
    await userEvent.click(screen.getByTestId("nickname-save"));
    expect(screen.getByRole("alert")).toHaveTextContent("昵称最多 20 个字");
    expect(api.callsTo("/update_info")).toHaveLength(0);
    await userEvent.clear(input);
    await userEvent.type(input, "  小红  ");
    await userEvent.click(screen.getByTestId("nickname-save"));
    await waitFor(() => expect(screen.getByTestId("profile-nickname")).toHaveTextContent("小红"));
    expect(api.callsTo("/update_info")[0]!.body).toEqual({ nickName: "小红" });
    expect(screen.getByTestId("user-name")).toHaveTextContent("小红"); // the header too

    await userEvent.click(screen.getByTestId("avatar-change"));
    const dialog = await screen.findByRole("dialog", { name: "选择头像" });
    await userEvent.click(within(dialog).getByTestId("avatar-option-3"));
    await userEvent.click(within(dialog).getByTestId("avatar-save"));
    await waitFor(() => expect(screen.getByTestId("avatar-image")).toHaveAttribute("src", "/avatars/a3.svg"));
    expect(api.callsTo("/update_info")[1]!.body).toEqual({ userPhoto: "/avatars/a3.svg" });
  });
});

describe("/personalInfo avatar upload", () => {
  it("uploads a photo of the user's own; refuses a non-image or one over 2 MB before sending", async () => {
    const api = engagementBackend({
      "POST /api/v1/user/upload_photo": () =>
        fakeUserInfo({ userPhoto: "/voice_yuelu/api/v1/user/photo/0f0f0f0f-0000-4000-8000-000000000001.png" }),
    });
    renderApp("/personalInfo");
    await userEvent.click(await screen.findByTestId("avatar-change"));
    const dialog = await screen.findByRole("dialog", { name: "选择头像" });
    const input = within(dialog).getByTestId("avatar-upload") as HTMLInputElement;

    await userEvent.upload(input, new File(["x"], "notes.txt", { type: "text/plain" }), { applyAccept: false });
    expect(await screen.findByText("请选择图片（PNG、JPEG、WebP 或 GIF）")).toBeInTheDocument();
    await userEvent.upload(input, new File([new Uint8Array(2 * 1024 * 1024 + 1)], "big.png", { type: "image/png" }));
    expect(await screen.findByText("图片超过 2 MB")).toBeInTheDocument();
    expect(api.callsTo("/upload_photo")).toHaveLength(0);

    await userEvent.upload(input, new File([new Uint8Array([137, 80, 78, 71])], "me.png", { type: "image/png" }));
    await waitFor(() =>
      expect(screen.getByTestId("avatar-image")).toHaveAttribute(
        "src",
        "/voice_yuelu/api/v1/user/photo/0f0f0f0f-0000-4000-8000-000000000001.png",
      ),
    );
    const sent = api.callsTo("/upload_photo")[0]!.body as FormData;
    expect((sent.get("file") as File).name).toBe("me.png");
  });
});

describe("/personalInfo?menu=account", () => {
  it("asks to confirm, then the deletion warning takes over (continue or abandon)", async () => {
    const api = engagementBackend({
      "POST /api/v3/user/delete_account": () => ({ status: 1, deleteTime: 1_735_787_045, purgeTime: 1_736_391_845 }),
    });
    renderApp("/personalInfo?menu=account");
    await userEvent.click(await screen.findByTestId("delete-account-start"));
    const confirm = await screen.findByRole("dialog", { name: "确定要注销账号吗？" });
    await userEvent.click(within(confirm).getByTestId("confirm"));
    expect(await screen.findByRole("dialog", { name: "账号注销中" })).toBeInTheDocument();
    expect(api.callsTo("/delete_account")).toHaveLength(1);
    expect(screen.getByRole("button", { name: "放弃注销" })).toBeInTheDocument();
  });
});
