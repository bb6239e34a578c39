import { describe, expect, it } from "vitest";
import { canInviteOn, dayStatus, localDay, shouldAutoOpenSign, shouldInvite, signButtonKey } from "./checkin-rules.ts";

describe("check-in rules (spec §4)", () => {
  it("marks days signed, signable today, or not yet", () => {
    const info = { allSignDay: 3, todaySign: false };
    expect([0, 1, 2, 3, 4].map((i) => dayStatus(i, info))).toEqual([0, 0, 0, 1, 2]);
    expect([2, 3].map((i) => dayStatus(i, { allSignDay: 3, todaySign: true }))).toEqual([0, 2]);
  });

  it("labels the button signed / member double / sign in", () => {
    expect(signButtonKey(true, true)).toBe("checkin.signed");
    expect(signButtonKey(false, true)).toBe("checkin.memberDouble");
    expect(signButtonKey(false, false)).toBe("checkin.signIn");
  });

  it("auto-opens only when not signed today and openSign is unset or 1", () => {
    expect(shouldAutoOpenSign(false, null)).toBe(true);
    expect(shouldAutoOpenSign(false, "1")).toBe(true);
    expect(shouldAutoOpenSign(false, "0")).toBe(false);
    expect(shouldAutoOpenSign(true, null)).toBe(false);
  });
});

describe("the check-in invitation does not nag (issue 43)", () => {
  it("is offered at most once a day per browser", () => {
    const today = localDay(new Date(2026, 0, 5, 23, 59));
    expect(today).toBe("2026-01-05");
    expect(shouldInvite(false, "1", null, today)).toBe(true);
    expect(shouldInvite(false, "1", "2026-01-04", today)).toBe(true);
    expect(shouldInvite(false, "1", today, today)).toBe(false);
    // the spec's own conditions still hold
    expect(shouldInvite(true, "1", null, today)).toBe(false);
    expect(shouldInvite(false, "0", null, today)).toBe(false);
  });

  it("opens by itself only on the landing page and My records, never on a transcript", () => {
    for (const p of ["/", "/audio-list", "/Audio-List", "/audio-list/"]) expect(canInviteOn(p), p).toBe(true);
    for (const p of ["/detail", "/transaudio", "/vip", "/recycle-bin", "/search", "/admin", "/personalInfo"]) {
      expect(canInviteOn(p), p).toBe(false);
    }
  });
});
