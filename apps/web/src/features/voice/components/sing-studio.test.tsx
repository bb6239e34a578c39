import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Midi } from "@tonejs/midi";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { type FakeCall, signInCookies } from "@/testing/fake-api.ts";
import { installFakeXhr } from "@/testing/fake-xhr.ts";
import { stubMedia } from "@/testing/media.ts";
import { signedInBackend } from "@/testing/records-fixtures.ts";
import { renderApp } from "@/testing/render.tsx";
import type { VoiceWork } from "../api/types.ts";
import { capabilities, libraryVoice, myVoice, quota, tune, voiceWork } from "../testing/fixtures.ts";

type Routes = Record<string, (call: FakeCall) => unknown>;

function studio(routes: Routes = {}) {
  return signedInBackend({
    "GET /voice/tunes": ({ headers }) =>
      headers.lang === "en"
        ? {
            list: [
              tune("twinkle", { name: "Twinkle", lyrics: "Twinkle, twinkle, little star, how I wonder what you are" }),
            ],
          }
        : {
            list: [
              tune(),
              tune("birthday", { name: "生日歌", lyrics: "祝你生日快乐", melody: tune().melody.slice(0, 6) }),
            ],
          },
    "GET /voice/quota": () => quota(),
    "GET /voice/capabilities": () => capabilities(),
    "GET /voice/my_voice/list": () => ({
      total: 2,
      list: [myVoice(4, { name: "我的声音" }), myVoice(5, { status: 1 })],
    }),
    "GET /new_tts/labs/get_sound_list": () => ({ total: 1, list: [libraryVoice(1)] }),
    "GET /voice/works/list": () => ({ total: 0, list: [] }),
    ...routes,
  });
}

const form = (body: unknown) =>
  Object.fromEntries([...(body as FormData).entries()].map(([k, v]) => [k, typeof v === "string" ? v : v]));

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("/songConversion (AI sings for you)", () => {
  it("shows the tune on a piano roll with its lyrics, counts syllables against notes, and moves with the key", async () => {
    studio();
    renderApp("/songConversion");
    const lyrics = (await screen.findByTestId("lyrics")) as HTMLTextAreaElement;
    await waitFor(() => expect(lyrics.value).toBe("一闪一闪亮晶晶，满天都是小星星"));
    expect(screen.getByTestId("syllable-count")).toHaveTextContent("音节 14 / 音符 14");
    const roll = screen.getByTestId("piano-roll");
    expect(within(roll).getAllByTestId("roll-note")).toHaveLength(14);
    expect(
      within(roll)
        .getAllByTestId("roll-syllable")
        .map((s) => s.textContent)
        .slice(0, 4),
    ).toEqual(["一", "闪", "一", "闪"]);
    expect(within(roll).getByRole("img")).toHaveAccessibleName(/14 个音符 · C4–A4 · 0:09 · 100 BPM/);

    fireEvent.change(screen.getByTestId("key-shift"), { target: { value: "3" } });
    expect(screen.getByTestId("key-shift-value")).toHaveTextContent("+3 半音");
    expect(within(roll).getAllByTestId("roll-note")[0]).toHaveAttribute("data-midi", "63");
    fireEvent.change(screen.getByTestId("tempo"), { target: { value: "2" } });
    expect(within(roll).getByRole("img")).toHaveAccessibleName(/0:04 · 200 BPM/);

    fireEvent.change(lyrics, { target: { value: "一闪一闪" } });
    expect(screen.getByTestId("syllable-count")).toHaveTextContent("音节 4 / 音符 14");
    expect(screen.getByTestId("syllable-hint")).toHaveTextContent("歌词比音符少 10 个音节：多出的音符会唱“啦”");
    expect(within(roll).getAllByTestId("roll-syllable")[4]).toHaveTextContent("啦");

    // more syllables than notes cannot be sung: said, and nothing is sent
    fireEvent.change(lyrics, { target: { value: "一闪一闪亮晶晶，满天都是小星星，挂在天上" } });
    expect(screen.getByTestId("syllable-count")).toHaveTextContent("音节 18 / 音符 14");
    expect(screen.getByTestId("syllable-hint")).toHaveTextContent("歌词比音符多 4 个音节");
    await userEvent.click(screen.getByTestId("sing-create"));
    expect(screen.getByTestId("sing-problem")).toHaveTextContent("歌词比音符多 4 个音节");

    // another tune brings its own lyrics
    await userEvent.selectOptions(screen.getByTestId("tune-select"), "birthday");
    await waitFor(() => expect(lyrics.value).toBe("祝你生日快乐"));
    expect(screen.getByTestId("syllable-count")).toHaveTextContent("音节 6 / 音符 6");
  });

  it("counts English syllables as the server splits them", async () => {
    setLang("en");
    studio();
    renderApp("/songConversion");
    const lyrics = (await screen.findByTestId("lyrics")) as HTMLTextAreaElement;
    await waitFor(() => expect(lyrics.value).toMatch(/^Twinkle/));
    expect(screen.getByTestId("sing-language")).toHaveValue("en");
    expect(screen.getByTestId("syllable-count")).toHaveTextContent("Syllables 14 / notes 14");
    expect(within(screen.getByTestId("piano-roll")).getAllByTestId("roll-syllable")[0]).toHaveTextContent("Twin");
  });

  it("sings with one of my voices: the fields are sent, the progress followed, then the player and the download", async () => {
    stubMedia();
    const Xhr = installFakeXhr();
    let polls = 0;
    let works: VoiceWork[] = [];
    studio({
      "GET /voice/works/list": () => ({ total: works.length, list: works }),
      "GET /voice/works/progress": () => {
        polls += 1;
        if (polls === 1) return [{ id: 21, status: 1, progress: 40 }];
        works = [voiceWork(21, "sing", { title: "小星星" })];
        return [{ id: 21, status: 2, progress: 100 }];
      },
    });
    renderApp("/songConversion");
    await waitFor(() => expect(screen.getByTestId("lyrics")).toHaveValue("一闪一闪亮晶晶，满天都是小星星"));
    const choice = screen.getByTestId("voice-choice");
    await waitFor(() => expect(within(choice).getByRole("option", { name: "我的声音" })).toBeInTheDocument());
    // a voice still analysing is not offered
    expect(within(choice).queryByRole("option", { name: "声音5" })).toBeNull();
    await userEvent.selectOptions(choice, "m4");
    fireEvent.change(screen.getByTestId("key-shift"), { target: { value: "-2" } });
    await userEvent.dblClick(screen.getByTestId("sing-create"));
    expect(Xhr.instances).toHaveLength(1);
    const xhr = Xhr.instances[0]!;
    expect(xhr.url).toContain("/voice_yuelu/voice/sing/create");
    const sent = form(xhr.body);
    expect(sent).toMatchObject({
      tuneId: "twinkle",
      lyrics: "一闪一闪亮晶晶，满天都是小星星",
      language: "zh",
      keyShift: "-2",
      tempo: "1",
      myVoiceId: "4",
    });
    expect(sent).not.toHaveProperty("promptId");
    expect(sent).not.toHaveProperty("midi");
    expect(String(sent.requestId)).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(screen.getByTestId("sing-create")).toBeDisabled();
    act(() =>
      xhr.respond(voiceWork(21, "sing", { title: "小星星", status: 3, progress: 0, audioUrl: "", downloadUrl: "" })),
    );

    const result = await screen.findByTestId("work-result");
    expect(await within(result).findByText("正在演唱 40%")).toBeInTheDocument();
    await waitFor(() => expect(result.dataset.phase).toBe("done"), { timeout: 5000 });
    const player = within(result).getByTestId("result-player");
    expect(player.querySelector("audio")?.getAttribute("src")).toBe(
      "/voice_yuelu/voice/works/file?workId=21&part=result&inline=1",
    );
    expect(within(player).getByRole("link", { name: "下载「小星星」" })).toHaveAttribute(
      "href",
      "/voice_yuelu/voice/works/file?workId=21&part=result",
    );
    // 'my works' has it once it is done
    expect(await screen.findByTestId("voice-work")).toHaveTextContent("小星星");
  });

  it("reads an uploaded MIDI file in the browser and sends it as the melody", async () => {
    const Xhr = installFakeXhr();
    studio();
    renderApp("/songConversion");
    await screen.findByTestId("lyrics");
    await userEvent.click(screen.getByTestId("melody-midi"));
    const midi = new Midi();
    midi.header.setTempo(90);
    const track = midi.addTrack();
    for (const [i, m] of [62, 64, 66].entries()) {
      track.addNote({ midi: m, ticks: i * midi.header.ppq, durationTicks: midi.header.ppq });
    }
    const file = new File([new Uint8Array(midi.toArray())], "melody.mid", { type: "audio/midi" });
    await userEvent.upload(screen.getByTestId("midi-file"), file);
    expect(await screen.findByTestId("midi-picked", {}, { timeout: 5000 })).toHaveTextContent("3 个音符 · 90 BPM");
    const roll = screen.getByTestId("piano-roll");
    expect(
      within(roll)
        .getAllByTestId("roll-note")
        .map((n) => n.getAttribute("data-midi")),
    ).toEqual(["62", "64", "66"]);
    fireEvent.change(screen.getByTestId("lyrics"), { target: { value: "啦啦啦" } });
    expect(screen.getByTestId("syllable-count")).toHaveTextContent("音节 3 / 音符 3");
    await userEvent.click(screen.getByTestId("sing-create"));
    const sent = form(Xhr.instances[0]!.body);
    expect(sent).not.toHaveProperty("tuneId");
    expect((sent.midi as File).name).toBe("melody.mid");
    expect([...(Xhr.instances[0]!.body as FormData).keys()].at(-1)).toBe("midi");
    act(() => Xhr.instances[0]!.respond(null, 20004, 200, "MIDI 文件里没有可唱的旋律"));
    expect(await screen.findByTestId("sing-problem")).toHaveTextContent("MIDI 文件里没有可唱的旋律");
  });

  it("refuses a file that is not MIDI, and says when today's works are used up", async () => {
    studio({ "GET /voice/quota": () => quota({ used: 10, limit: 10 }) });
    renderApp("/songConversion");
    expect(await screen.findByTestId("voice-quota-used")).toHaveTextContent("今日作品次数已用完（每日 10 个）");
    await waitFor(() => expect(screen.getByTestId("sing-create")).toBeDisabled());
    await userEvent.click(screen.getByTestId("melody-midi"));
    await userEvent.upload(screen.getByTestId("midi-file"), new File(["x"], "song.mp3"), { applyAccept: false });
    expect(await screen.findByTestId("midi-refused")).toHaveTextContent("请选择 .mid 文件：song.mp3");
  });

  it("my sung songs: rename and delete", async () => {
    let works = [voiceWork(1, "sing", { title: "旧歌" })];
    const api = studio({
      "GET /voice/works/list": ({ url }) => {
        expect(url.searchParams.get("kind")).toBe("sing");
        return { total: works.length, list: works };
      },
      "POST /voice/works/rename": ({ body }) => {
        works = [voiceWork(1, "sing", { title: (body as { title: string }).title })];
        return works[0];
      },
      "POST /voice/works/delete": () => {
        works = [];
        return { workIds: [1] };
      },
    });
    renderApp("/songConversion");
    const row = await screen.findByTestId("voice-work");
    await userEvent.click(within(row).getByRole("button", { name: "重命名「旧歌」" }));
    const dialog = await screen.findByRole("dialog", { name: "重命名作品" });
    const input = within(dialog).getByRole("textbox");
    await userEvent.clear(input);
    await userEvent.type(input, "新歌");
    await userEvent.click(within(dialog).getByRole("button", { name: "确定" }));
    await waitFor(() => expect(api.callsTo("/works/rename")[0]?.body).toEqual({ workId: 1, title: "新歌" }));
    await userEvent.click(await screen.findByRole("button", { name: "删除「新歌」" }));
    const confirm = await screen.findByRole("dialog", { name: "删除作品" });
    await userEvent.click(within(confirm).getByTestId("confirm"));
    await waitFor(() => expect(api.callsTo("/works/delete")[0]?.body).toEqual({ workIds: [1] }));
    expect(await screen.findByText(/还没有演唱作品/)).toBeInTheDocument();
  });
});
