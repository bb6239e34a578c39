import { describe, expect, it } from "vitest";
import { firstStep, nextStep, type OnboardingFlags, surveyStartStep } from "./onboarding-steps.ts";

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

describe("onboarding order (spec §4)", () => {
  it("asks the survey first while identity or channel is missing", () => {
    expect(firstStep({ ...base, infoCollectChannel: "" })).toBe("survey");
    expect(firstStep({ ...base, infoCollectIdentity: "" })).toBe("survey");
  });

  it("opens the survey on step 2 when the identity is already set", () => {
    expect(surveyStartStep({ infoCollectIdentity: "学生" })).toBe(2);
    expect(surveyStartStep({ infoCollectIdentity: "" })).toBe(1);
  });

  it("chains new-user gift → invitation gift → black card → sign-in reward", () => {
    expect(
      chain({ ...base, infoCollectIdentity: "", received: true, receiveSuccess: true, blackProReceive: true }),
    ).toEqual(["survey", "new_user", "invite", "black_card", "signin", "done"]);
  });

  it("skips gifts that were not granted", () => {
    expect(chain({ ...base, received: true, blackProReceive: true })).toEqual([
      "new_user",
      "black_card",
      "signin",
      "done",
    ]);
    expect(chain({ ...base, receiveSuccess: true })).toEqual(["invite", "signin", "done"]);
    expect(chain({ ...base, blackProReceive: true })).toEqual(["black_card", "signin", "done"]);
  });

  it("goes straight to the sign-in reward when nothing is pending", () => {
    expect(chain(base)).toEqual(["signin", "done"]);
  });
});
