import { describe, expect, it } from "vitest";
import { displayNickname } from "./nickname.ts";

describe("displayNickname", () => {
  it("shows the default nickname in English when the UI is English", () => {
    expect(displayNickname("用户1234", "en")).toBe("User 1234");
    expect(displayNickname("用户1234", "zh")).toBe("用户1234");
  });
  it("leaves every other nickname as the user chose it", () => {
    expect(displayNickname("用户12345", "en")).toBe("用户12345");
    expect(displayNickname("小明", "en")).toBe("小明");
    expect(displayNickname("用户abcd", "en")).toBe("用户abcd");
  });
});
