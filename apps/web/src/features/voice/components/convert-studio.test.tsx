import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { type FakeCall, signInCookies } from "@/testing/fake-api.ts";
import { installFakeXhr } from "@/testing/fake-xhr.ts";
import { stubMedia } from "@/testing/media.ts";
import { signedInBackend } from "@/testing/records-fixtures.ts";
import { renderApp } from "@/testing/render.tsx";
import type { VoiceWork } from "../api/types.ts";
import { capabilities, libraryVoice, myVoice, quota, voiceWork } from "../testing/fixtures.ts";

const duration = vi.hoisted(() => ({ seconds: null as number | null }));
vi.mock("@/lib/media-duration.ts", () => ({ readMediaDuration: async () => duration.seconds }));

type Routes = Record<string, (call: FakeCall) => unknown>;

function studio(routes: Routes = {}) {
  return signedInBackend({
    "GET /voice/quota": () => quota(),
    "GET /voice/capabilities": () => capabilities(),
    "GET /voice/my_voice/list": () => ({ total: 1, list: [myVoice(4, { name: "我的声音" })] }),
    "GET /new_tts/labs/get_sound_list": () => ({
      total: 2,
      list: [libraryVoice(1), libraryVoice(2, { name: "不可用", available: false })],
    }),
    "GET /voice/works/list": () => ({ total: 0, list: [] }),
    "GET /voice/works/file": () => new Response(new Uint8Array(64), { headers: { "content-type": "audio/mpeg" } }),
    ...routes,
  });
}

/** Web Audio's decoder for the waveform: 12 s of a rising ramp. */
function stubDecoder() {
  class FakeOffline {
    async decodeAudioData() {
      const data = Float32Array.from({ length: 1200 }, (_, i) => i / 1200);
      return { numberOfChannels: 1, duration: 12, getChannelData: () => data };
    }
  }
  vi.stubGlobal("OfflineAudioContext", FakeOffline);
}

beforeEach(() => {
  setLang("zh");
  signInCookies();
  duration.seconds = null;
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("/song-conversion", () => {
  it("uploads a song with its progress, follows the conversion, then plays before and after from the same place", async () => {
    const media = stubMedia();
    stubDecoder();
    const Xhr = installFakeXhr();
    let works: VoiceWork[] = [];
    let polls = 0;
    studio({
      "GET /voice/works/list": () => ({ total: works.length, list: works }),
      "GET /voice/works/progress": () => {
        polls += 1;
        if (polls === 1) return [{ id: 31, status: 1, progress: 55 }];
        works = [voiceWork(31, "convert", { title: "晴天", semitones: 3 })];
        return [{ id: 31, status: 2, progress: 100 }];
      },
    });
    renderApp("/song-conversion");
    duration.seconds = 200;
    await userEvent.upload(
      await screen.findByTestId("song-file"),
      new File(["abc"], "晴天.mp3", { type: "audio/mpeg" }),
    );
    expect(await screen.findByTestId("song-picked")).toHaveTextContent("晴天.mp3");
    expect(screen.getByTestId("song-picked")).toHaveTextContent("3:20");
    fireEvent.change(screen.getByTestId("semitones"), { target: { value: "3" } });
    const choice = screen.getByTestId("voice-choice");
    await waitFor(() => expect(within(choice).getByRole("option", { name: /音色1/ })).toBeInTheDocument());
    expect(within(choice).queryByRole("option", { name: /不可用/ })).toBeNull();
    await userEvent.selectOptions(choice, "p1");
    await userEvent.dblClick(screen.getByTestId("convert-create"));
    expect(Xhr.instances).toHaveLength(1);
    const xhr = Xhr.instances[0]!;
    expect(xhr.url).toContain("/voice_yuelu/voice/convert/create");
    const body = xhr.body as FormData;
    expect([...body.keys()]).toEqual(["semitones", "promptId", "requestId", "file"]);
    expect(body.get("semitones")).toBe("3");
    expect(body.get("promptId")).toBe("1");
    expect((body.get("file") as File).name).toBe("晴天.mp3");
    act(() => xhr.progress(1, 3));
    expect(await screen.findByTestId("upload-progress")).toHaveTextContent("正在上传 33%");
    act(() =>
      xhr.respond(voiceWork(31, "convert", { title: "晴天", status: 3, progress: 0, audioUrl: "", originalUrl: "" })),
    );

    const result = await screen.findByTestId("work-result");
    expect(await within(result).findByText("正在转换 55%")).toBeInTheDocument();
    await waitFor(() => expect(result.dataset.phase).toBe("done"), { timeout: 5000 });
    const player = within(result).getByTestId("result-player");
    const before = player.querySelector('audio[data-side="before"]') as HTMLAudioElement;
    const after = player.querySelector('audio[data-side="after"]') as HTMLAudioElement;
    expect(before.getAttribute("src")).toBe("/voice_yuelu/voice/works/file?workId=31&part=original&inline=1");
    expect(after.getAttribute("src")).toBe("/voice_yuelu/voice/works/file?workId=31&part=result&inline=1");
    // the waveform, decoded in the page
    const wave = await within(player).findByTestId("waveform");
    expect(wave.querySelectorAll("rect")).toHaveLength(240);

    await userEvent.click(within(player).getByRole("button", { name: "播放「晴天」" }));
    expect(media.played.at(-1)).toBe(after);
    after.currentTime = 5;
    await userEvent.click(within(player).getByTestId("ab-before"));
    expect(player.dataset.side).toBe("before");
    expect(before.currentTime).toBe(5);
    expect(media.played.at(-1)).toBe(before);
    expect(after.paused).toBe(true);
    expect(player.dataset.playing).toBe("1");
    await userEvent.click(within(player).getByTestId("ab-after"));
    expect(media.played.at(-1)).toBe(after);
    // 'my converted songs' has it, its player before/after too
    const row = await screen.findByTestId("voice-work");
    expect(row).toHaveTextContent("+3 半音");
  });

  it("refuses a file of another type before sending, and shows the server's refusal", async () => {
    const Xhr = installFakeXhr();
    studio();
    renderApp("/song-conversion");
    await userEvent.upload(await screen.findByTestId("song-file"), new File(["x"], "notes.txt"), {
      applyAccept: false,
    });
    expect(await screen.findByTestId("song-refused")).toHaveTextContent("不支持该文件格式：notes.txt");
    expect(screen.getByTestId("convert-create")).toBeDisabled();
    await userEvent.upload(screen.getByTestId("song-file"), new File(["x"], "a.wav", { type: "audio/wav" }));
    await userEvent.click(await screen.findByTestId("convert-create"));
    act(() => Xhr.instances[0]!.respond(null, 20004, 200, "没有找到人声（单声道或纯音乐）"));
    expect(await screen.findByTestId("convert-problem")).toHaveTextContent("没有找到人声");
    expect(screen.getByTestId("convert-create")).toBeEnabled();
  });

  it("lists converted songs in English with their original to compare", async () => {
    setLang("en");
    studio({ "GET /voice/works/list": () => ({ total: 1, list: [voiceWork(8, "convert", { title: "Rain" })] }) });
    renderApp("/song-conversion");
    const row = await screen.findByTestId("voice-work");
    expect(row).toHaveTextContent("Done");
    await userEvent.click(within(row).getByRole("button", { name: "Play “Rain”" }));
    const player = within(row).getByTestId("work-player");
    expect(within(player).getByRole("radio", { name: "Original" })).toBeInTheDocument();
    expect(within(player).getByRole("radio", { name: "Converted" })).toBeChecked();
  });
});
