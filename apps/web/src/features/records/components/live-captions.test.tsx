import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import { renderInApp } from "@/testing/render.tsx";
import { Downsampler, type LiveCaptionState } from "../live/live-client.ts";
import { LiveCaptions } from "./live-captions.tsx";

function show(state: LiveCaptionState | null, over: Partial<Parameters<typeof LiveCaptions>[0]> = {}) {
  const props = { state, language: "en" as const, onLanguage: vi.fn(), recording: true, ...over };
  renderInApp(
    <MemoryRouter>
      <LiveCaptions {...props} />
    </MemoryRouter>,
  );
  return props;
}

const live = (over: Partial<LiveCaptionState>): LiveCaptionState => ({
  status: "live",
  finals: [],
  partial: "",
  sessionIds: [],
  ...over,
});

describe("live captions under the recorder", () => {
  it("shows the fixed text, then the still-changing tail greyed apart", () => {
    show(live({ finals: [{ text: "And so my fellow Americans,", startMs: 0, endMs: 2000 }], partial: "ask not" }));
    expect(screen.getByTestId("live-final")).toHaveTextContent("And so my fellow Americans,");
    const tail = screen.getByTestId("live-partial");
    expect(tail).toHaveTextContent("ask not");
    expect(tail).toHaveClass("live-partial");
  });

  it("says it is listening before the first words", () => {
    show(live({}));
    expect(screen.getByTestId("live-text")).toHaveTextContent("正在听");
  });

  it("says the audio is kept while it reconnects", () => {
    show(live({ status: "reconnecting", finals: [{ text: "And so", startMs: 0, endMs: 1 }] }));
    expect(screen.getByRole("status")).toHaveTextContent("音频不会丢失");
  });

  it("tells, in users' words, that Chinese live captions are not available", () => {
    show(live({ status: "unavailable", message: "暂不支持中文实时字幕" }), { language: "zh" });
    expect(screen.getByTestId("live-unavailable")).toHaveTextContent("暂不支持中文实时字幕，录音和转写不受影响。");
    expect(screen.getByTestId("live-unavailable").textContent).not.toMatch(/模型|[A-Z]+_[A-Z]+/);
  });

  it("without Chinese live captions: says so before recording, starts off, English only for English speech", () => {
    show(null, { recording: false, language: null, available: { zh: false, en: true } });
    expect(screen.getByTestId("live-zh-unavailable")).toHaveTextContent("暂不支持中文实时字幕");
    const select = screen.getByTestId("live-language") as HTMLSelectElement;
    expect(select.value).toBe("off");
    const zh = screen.getByRole("option", { name: "中文（暂不支持）" }) as HTMLOptionElement;
    expect(zh.disabled).toBe(true);
    expect(screen.getByRole("option", { name: "英文（仅适用于英文语音）" })).toBeEnabled();
    // no "auto": it would caption Chinese speech as English
    expect([...select.options].map((o) => o.value)).toEqual(["zh", "en", "off"]);
  });

  it("shows no latency figure once recorded: the first caption's delay is a data attribute only", () => {
    show(live({ status: "done", finals: [{ text: "And so", startMs: 0, endMs: 1 }], firstCaptionMs: 581 }), {
      recording: false,
    });
    const preview = screen.getByTestId("live-first-caption");
    expect(preview).toHaveAttribute("data-ms", "581");
    expect(preview.textContent).not.toMatch(/581|毫秒|延迟/);
  });

  it("says why captions stopped when the transcription time ran out, and that the recording goes on", () => {
    show(
      live({
        status: "stopped",
        message: "今日转写额度已用完，请明天再来",
        finals: [{ text: "And so", startMs: 0, endMs: 1 }],
      }),
    );
    const note = screen.getByTestId("live-unavailable");
    expect(note).toHaveTextContent("实时字幕已停止：今日转写额度已用完，请明天再来");
    expect(note).toHaveTextContent("录音仍在继续");
    // what was captioned before stays
    expect(screen.getByTestId("live-final")).toHaveTextContent("And so");
  });

  it("keeps the language fixed while recording", () => {
    show(null, { recording: true });
    expect(screen.getByTestId("live-language")).toBeDisabled();
  });

  it("lets the language be chosen (or captions turned off) before recording", async () => {
    const props = show(null, { recording: false });
    await userEvent.selectOptions(screen.getByTestId("live-language"), "off");
    expect(props.onLanguage).toHaveBeenCalledWith(null);
    expect(screen.getByTestId("live-text")).toHaveTextContent("录音时，说话内容会实时显示在这里");
  });

  it("gives way to the transcript once the recording is transcribed", () => {
    show(live({ status: "done", finals: [{ text: "Ask what you can do", startMs: 0, endMs: 1 }] }), {
      recording: false,
      transcriptHref: "/detail?fileId=7",
    });
    expect(screen.getByTestId("live-replaced")).toHaveTextContent("完整转写稿已替代实时字幕");
    expect(screen.getByRole("link")).toHaveAttribute("href", "/detail?fileId=7");
    expect(screen.queryByTestId("live-text")).toBeNull();
  });
});

describe("the 16 kHz downsampler", () => {
  it("turns 48 kHz blocks into a third as many samples, across block edges, averaging", () => {
    const down = new Downsampler(48_000);
    const a = down.push(new Float32Array(4096).fill(0.5));
    const b = down.push(new Float32Array(4096).fill(0.5));
    expect(a.length + b.length).toBe(Math.floor(8192 / 3));
    expect(a[0]).toBe(Math.round(0.5 * 32767));
  });

  it("handles rates that are not a multiple of 16 kHz (44.1 kHz)", () => {
    const down = new Downsampler(44_100);
    const out = down.push(new Float32Array(44_100).fill(-0.25));
    expect(Math.abs(out.length - 16_000)).toBeLessThanOrEqual(1);
    expect(out.every((v) => v === Math.round(-0.25 * 32767))).toBe(true);
  });
});
