import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { rewardDialog } from "@/lib/app-dialogs.ts";
import { setLang } from "@/lib/i18n.ts";
import { engagementBackend, task } from "@/testing/engagement-fixtures.ts";
import { envelopeError, type FakeCall, signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";

const TASKS = [
  [
    task({ challengeId: 1, challengeName: "每日签到", progressAmount: 1, progressStatus: 1, rewardNumber: 10 }),
    task({ challengeId: 2, challengeName: "转写一个文件", rewardNumber: 20 }),
  ],
  [
    task({
      challengeId: 103,
      challengeName: "累计转写1小时",
      challengeType: 1,
      progressAmount: 1200,
      progressFinish: 3600,
      rewardType: 1,
      rewardNumber: 1800,
    }),
    task({ challengeId: 105, challengeName: "使用一次兑换码", challengeType: 1, progressAmount: 1, progressStatus: 2 }),
  ],
];

/** Opens the reward dialog (its code loads the first time) on `tab`. */
async function openRewards(tab: "任务挑战" | "礼包兑换") {
  act(() => rewardDialog.open());
  const trigger = await screen.findByRole("tab", { name: tab }, { timeout: 5000 });
  await userEvent.click(trigger);
  return screen.getByRole("dialog", { name: "福利中心" });
}

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => {
  act(() => rewardDialog.close());
  vi.unstubAllGlobals();
});

describe("task challenges", () => {
  it("lists daily tasks first, then challenges; claims only the claimable one and shows its reward", async () => {
    let claimed = false;
    const api = engagementBackend({
      "GET /api/v1/challenge/task_list": () =>
        claimed ? [[{ ...TASKS[0]![0]!, progressStatus: 2 }, TASKS[0]![1]!], TASKS[1]!] : TASKS,
      "POST /api/v1/challenge/receive_reward": () => {
        claimed = true;
        return [{ type: 0, num: 10, amount: 1 }];
      },
    });
    renderApp("/404");
    const dialog = await openRewards("任务挑战");
    const panel = await within(dialog).findByTestId("task-panel");
    const groups = within(panel).getAllByRole("heading", { level: 3 });
    expect(groups.map((h) => h.textContent)).toEqual(["每日任务", "挑战任务"]);

    const claimable = within(panel).getByTestId("task-1");
    const unfinished = within(panel).getByTestId("task-2");
    const done = within(panel).getByTestId("task-105");
    expect(within(unfinished).getByTestId("task-claim")).toBeDisabled();
    expect(within(unfinished).getByTestId("task-claim")).toHaveTextContent("未完成");
    expect(within(done).getByTestId("task-claim")).toHaveTextContent("已领取");
    expect(within(done).getByTestId("task-claim")).toBeDisabled();
    expect(within(panel).getByTestId("task-103")).toHaveTextContent("进度 33%");
    expect(within(panel).getByTestId("task-103")).toHaveTextContent("奖励：30 分钟");
    expect(within(panel).getByTestId("task-103").querySelector("svg")).toHaveAttribute("data-tier", "1800");
    expect(claimable).toHaveTextContent("进度 1/1");

    await userEvent.click(within(claimable).getByTestId("task-claim"));
    const popup = await screen.findByTestId("reward-popup");
    expect(within(popup).getByTestId("reward-amount")).toHaveTextContent("10 悦豆");
    expect(api.callsTo("/receive_reward").map((c) => c.body)).toEqual([{ challengeId: 1 }]);
    await userEvent.click(screen.getByRole("button", { name: "开心收下" }));
    // the list refreshes: the task now reads claimed
    await waitFor(() =>
      expect(within(screen.getByTestId("task-1")).getByTestId("task-claim")).toHaveTextContent("已领取"),
    );
    expect(api.callsTo("/task_list").length).toBeGreaterThan(1);
  });

  it("an empty answer says 'no reward to claim'", async () => {
    const api = engagementBackend({
      "GET /api/v1/challenge/task_list": () => TASKS,
      "POST /api/v1/challenge/receive_reward": () => [],
    });
    renderApp("/404");
    const dialog = await openRewards("任务挑战");
    await userEvent.click(within(await within(dialog).findByTestId("task-1")).getByTestId("task-claim"));
    expect(await screen.findByText("暂无可领取的奖励")).toBeInTheDocument();
    expect(screen.queryByTestId("reward-popup")).toBeNull();
    expect(api.callsTo("/receive_reward")).toHaveLength(1);
  });
});

describe("gift-pack exchange", () => {
  function giftBackend(answer: (code: string) => unknown) {
    return engagementBackend({
      "POST /api/v1/gift_pack/gift_code_exchange": (call: FakeCall) =>
        answer((call.body as { packCode: string }).packCode),
    });
  }

  it("refuses an empty and a short code before any call; the input keeps 8 characters", async () => {
    const api = giftBackend(() => ({ rewardType: 0, rewardNumber: 50 }));
    renderApp("/404");
    const dialog = await openRewards("礼包兑换");
    const input = within(dialog).getByTestId("gift-code");
    await userEvent.click(within(dialog).getByTestId("gift-redeem"));
    expect(within(dialog).getByTestId("gift-error")).toHaveTextContent("请填写兑换码");
    await userEvent.type(input, "abc12");
    await userEvent.click(within(dialog).getByTestId("gift-redeem"));
    expect(within(dialog).getByTestId("gift-error")).toHaveTextContent("请填写正确的兑换码");
    expect(api.callsTo("/gift_code_exchange")).toHaveLength(0);
    await userEvent.clear(input);
    await userEvent.type(input, "spring2025xyz");
    expect(input).toHaveValue("SPRING20");
  });

  it("beans and time cards: the 'happy to accept' reward popup", async () => {
    const api = giftBackend(() => ({ rewardType: 1, rewardNumber: 7200 }));
    renderApp("/404");
    const dialog = await openRewards("礼包兑换");
    await userEvent.type(within(dialog).getByTestId("gift-code"), "abcd2345");
    await userEvent.click(within(dialog).getByTestId("gift-redeem"));
    const popup = await screen.findByTestId("reward-popup");
    expect(within(popup).getByTestId("reward-amount")).toHaveTextContent("2 小时");
    expect(popup.querySelector("svg")).toHaveAttribute("data-tier", "7200");
    expect(screen.queryByTestId("member-popup")).toBeNull();
    expect(api.callsTo("/gift_code_exchange")[0]!.body).toEqual({ packCode: "ABCD2345" });
    expect(within(dialog).getByTestId("gift-code")).toHaveValue("");
  });

  it("membership days (types 101–199): the membership-claimed popup", async () => {
    giftBackend(() => ({ rewardType: 130, rewardNumber: 30 }));
    renderApp("/404");
    const dialog = await openRewards("礼包兑换");
    await userEvent.type(within(dialog).getByTestId("gift-code"), "VIP30DAY");
    await userEvent.click(within(dialog).getByTestId("gift-redeem"));
    const popup = await screen.findByTestId("member-popup");
    expect(popup).toHaveTextContent("已为你开通 30 天会员");
    expect(screen.getByRole("dialog", { name: "会员领取成功" })).toBeInTheDocument();
    expect(screen.queryByTestId("reward-popup")).toBeNull();
  });

  it("a refused code says why, in place", async () => {
    giftBackend(() => envelopeError(60004, "兑换码无效或已过期"));
    renderApp("/404");
    const dialog = await openRewards("礼包兑换");
    await userEvent.type(within(dialog).getByTestId("gift-code"), "NOSUCH11");
    await userEvent.click(within(dialog).getByTestId("gift-redeem"));
    expect(await within(dialog).findByTestId("gift-error")).toHaveTextContent("兑换码无效或已过期");
  });

  it("in English", async () => {
    setLang("en");
    giftBackend(() => ({ rewardType: 0, rewardNumber: 1 }));
    renderApp("/404");
    act(() => rewardDialog.open());
    await userEvent.click(await screen.findByRole("tab", { name: "Gift codes" }, { timeout: 5000 }));
    const dialog = screen.getByRole("dialog", { name: "Rewards" });
    await userEvent.click(within(dialog).getByTestId("gift-redeem"));
    expect(within(dialog).getByTestId("gift-error")).toHaveTextContent("Please fill in the redeem code");
    await userEvent.type(within(dialog).getByTestId("gift-code"), "abcd2345");
    await userEvent.click(within(dialog).getByTestId("gift-redeem"));
    expect(within(await screen.findByTestId("reward-popup")).getByTestId("reward-amount")).toHaveTextContent("1 bean");
  });
});
