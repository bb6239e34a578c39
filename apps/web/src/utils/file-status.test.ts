import { describe, expect, it } from "vitest";
import { i18n } from "@/lib/i18n.ts";
import { canTranscribe, isInProgress, isSettled, statusLabel } from "./file-status.ts";

const t = (k: string, o?: Record<string, unknown>) => i18n.t(k, o);

describe("display status (spec §4)", () => {
  it("labels every status in Chinese", async () => {
    await i18n.changeLanguage("zh");
    expect(statusLabel(t, 0)).toBe("未转写");
    expect(statusLabel(t, 3)).toBe("排队中");
    expect(statusLabel(t, 1, 42)).toBe("转写中 42%");
    expect(statusLabel(t, 2)).toBe("已完成");
    expect(statusLabel(t, -1)).toBe("失败");
  });
  it("and in English", async () => {
    await i18n.changeLanguage("en");
    expect(statusLabel(t, 1, 7.6)).toBe("Transcribing 8%");
    expect(statusLabel(t, 0)).toBe("Not transcribed");
    await i18n.changeLanguage("zh");
  });
  it("knows what is in progress, settled, transcribable", () => {
    expect([0, 1, 2, 3, -1].filter(isInProgress)).toEqual([1, 3]);
    expect([0, 1, 2, 3, -1, -10].filter(isSettled)).toEqual([2, -1, -10]);
    expect([0, 1, 2, 3, -1].filter(canTranscribe)).toEqual([0, -1]);
  });
});
