import { describe, expect, it } from "vitest";
import { firstStep, grantedGifts, nextStep, type OnboardingFlags, surveyStartStep } from "./onboarding-steps.ts";

const base: OnboardingFlags = {
  infoCollectIdentity: "学生",
  infoCollectChannel: "朋友推荐",
  received: false,
  receiveSuccess: false,
  blackProReceive: false,
};

function chain(flags: OnboardingFlags) {
  const steps = [firstStep(flags)];
  while (steps.at(-1) !== "done") steps.push(nextStep(steps.at(-1)!, flags));
  return steps;
}

/** The dialogs a chain shows before the user can act: the survey, the gifts card, the check-in invitation. */
const dialogs = (flags: OnboardingFlags) => chain(flags).filter((s) => s !== "done").length;

describe("onboarding order (spec §4, one surface: issue 43)", () => {
  it("asks the survey first while identity or channel is missing", () => {
    expect(firstStep({ ...base, infoCollectChannel: "" })).toBe("survey");
    expect(firstStep({ ...base, infoCollectIdentity: "" })).toBe("survey");
  });

  it("opens the survey on step 2 when the identity is already set", () => {
    expect(surveyStartStep({ infoCollectIdentity: "学生" })).toBe(2);
    expect(surveyStartStep({ infoCollectIdentity: "" })).toBe(1);
  });

  it("announces every granted gift in one card, in the chain's order: new-user → invitation → black card", () => {
    const all = { ...base, received: true, receiveSuccess: true, blackProReceive: true };
    expect(grantedGifts(all)).toEqual(["new_user", "invite", "black_card"]);
    expect(grantedGifts({ ...base, received: true, blackProReceive: true })).toEqual(["new_user", "black_card"]);
    expect(grantedGifts({ ...base, receiveSuccess: true })).toEqual(["invite"]);
    expect(grantedGifts(base)).toEqual([]);
  });

  it("survey → gifts card, which carries the check-in offer: no separate check-in dialog after it", () => {
    const all = { ...base, infoCollectIdentity: "", received: true, receiveSuccess: true, blackProReceive: true };
    expect(chain(all)).toEqual(["survey", "gifts", "done"]);
    expect(chain({ ...base, received: true })).toEqual(["gifts", "done"]);
  });

  it("with no gift to announce, the survey is followed by the check-in invitation", () => {
    expect(chain({ ...base, infoCollectChannel: "" })).toEqual(["survey", "signin", "done"]);
    expect(chain(base)).toEqual(["signin", "done"]);
  });

  it("never shows more than two dialogs before the user can act, whatever the flags", () => {
    for (const missing of [false, true])
      for (const received of [false, true])
        for (const receiveSuccess of [false, true])
          for (const blackProReceive of [false, true]) {
            const flags = {
              ...base,
              infoCollectIdentity: missing ? "" : "学生",
              received,
              receiveSuccess,
              blackProReceive,
            };
            expect(dialogs(flags), JSON.stringify(flags)).toBeLessThanOrEqual(2);
          }
  });
});
