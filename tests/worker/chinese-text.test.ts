import { describe, expect, it } from "vitest";
import { chineseTypography, toSimplified } from "../../apps/worker/src/speech/chinese.ts";
import { punctuate } from "../../apps/worker/src/speech/punctuate.ts";

/** Chinese output whatever the engine: Simplified characters, Chinese punctuation, no English spacing. */
describe("Chinese text", () => {
  it("converts Traditional (Taiwan, Hong Kong) characters to Simplified", () => {
    expect(toSimplified("我們今天開會討論這個問題")).toBe("我们今天开会讨论这个问题");
    expect(toSimplified("頭髮後來說話臺灣")).toBe("头发后来说话台湾");
    expect(toSimplified("这已经是简体")).toBe("这已经是简体");
  });

  it("uses Chinese punctuation and drops the spaces between Chinese words, keeping numbers as given", () => {
    expect(chineseTypography("我们 今天 开会, 讨论 这个 问题.")).toBe("我们今天开会，讨论这个问题。");
    expect(chineseTypography("增长了3.5%, 时间是10:30.")).toBe("增长了3.5%，时间是10:30。");
    expect(chineseTypography("你好吗?我很好!")).toBe("你好吗？我很好！");
    expect(chineseTypography("我们用 Python 写代码")).toBe("我们用 Python 写代码");
    expect(chineseTypography("等一下...")).toBe("等一下……");
  });

  it("every transcript segment in Chinese comes out Simplified and punctuated (the job's last step)", () => {
    expect(punctuate("我們 今天 開會, 討論 這個 問題.", "zh")).toBe("我们今天开会，讨论这个问题。");
    expect(punctuate("今天天气很好 我们去公园", "zh")).toBe("今天天气很好，我们去公园。");
    expect(punctuate("你吃飯了嗎", "zh")).toBe("你吃饭了吗？");
    // a Chinese segment in an 'auto' transcript gets the same treatment
    expect(punctuate("這是 測試", "auto")).toBe("这是，测试。");
    // English is left alone
    expect(punctuate("Hello, world.", "en")).toBe("Hello, world.");
  });
});
