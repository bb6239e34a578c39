import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { readStorage, StorageKey, writeStorage } from "@/lib/storage.ts";
import { type FakeCall, signInCookies } from "@/testing/fake-api.ts";
import { stubMedia } from "@/testing/media.ts";
import { signedInBackend } from "@/testing/records-fixtures.ts";
import { renderApp } from "@/testing/render.tsx";
import { selectOptions, voice } from "../testing/fixtures.ts";

const VOICES = [voice(1), voice(2), voice(3, { available: false, missing: "服务器未安装 festival" })];

function library(routes: Record<string, (call: FakeCall) => unknown> = {}) {
  return signedInBackend({
    "GET /new_tts/labs/select_options": () => selectOptions,
    "GET /new_tts/labs/get_sound_list": ({ url }) => {
      const gender = url.searchParams.get("gender");
      const list = VOICES.filter((v) => !gender || v.gender === gender);
      return { total: list.length, list };
    },
    "GET /new_tts/labs/try_listen": ({ url }) => {
      const promptId = Number(url.searchParams.get("promptId"));
      return { promptId, audioUrl: `/voice_yuelu/new_tts/labs/sample?promptId=${promptId}&v=abc`, sampleText: "你好" };
    },
    "GET /tts/quota": () => ({ charsUsedToday: 0, charsLimitToday: 20000, maxChars: 5000, member: false }),
    "GET /tts/task_list": () => ({ total: 0, list: [] }),
    ...routes,
  });
}

const card = (promptId: number) =>
  screen.getAllByTestId("voice-card").find((c) => c.dataset.promptId === String(promptId))!;

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("/voice-library", () => {
  it("lists voices with their traits; filters at -1 (all) are left out of the query (spec §5)", async () => {
    const api = library();
    renderApp("/voice-library");
    expect(await screen.findAllByTestId("voice-card")).toHaveLength(3);
    expect(card(1)).toHaveTextContent("音色1");
    expect(card(1)).toHaveTextContent("女声");
    expect(card(1)).toHaveTextContent("默认");
    expect(card(3)).toHaveTextContent("服务器未安装 festival");
    expect(within(card(3)).getByTestId("voice-use")).toBeDisabled();

    const first = api.callsTo("/get_sound_list")[0]!.url.searchParams;
    for (const key of ["language", "gender", "ageGroup", "style", "keyword"]) expect(first.has(key)).toBe(false);
    expect(first.get("page")).toBe("1");

    const gender = screen.getByRole("combobox", { name: "性别" });
    expect(
      within(gender)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["全部性别", "男声", "女声"]);
    await userEvent.selectOptions(gender, "female");
    await waitFor(() => expect(screen.getAllByTestId("voice-card")).toHaveLength(2));
    const filtered = api.callsTo("/get_sound_list").at(-1)!.url.searchParams;
    expect(filtered.get("gender")).toBe("female");
    expect(filtered.has("language")).toBe(false);

    await userEvent.selectOptions(gender, "-1");
    await waitFor(() => expect(screen.getAllByTestId("voice-card")).toHaveLength(3));
    expect(api.callsTo("/get_sound_list").every((c) => c.url.searchParams.get("gender") !== "-1")).toBe(true);
  });

  it("plays one sample at a time: starting another clears the first; pressing again stops", async () => {
    const media = stubMedia();
    const api = library();
    renderApp("/voice-library");
    await screen.findAllByTestId("voice-card");

    await userEvent.click(within(card(1)).getByRole("button", { name: "试听「音色1」" }));
    await waitFor(() => expect(card(1).dataset.playing).toBe("1"));
    expect(api.callsTo("/try_listen")[0]!.url.searchParams.get("promptId")).toBe("1");
    const audio = screen.getByTestId("sample-audio") as HTMLAudioElement;
    expect(audio.getAttribute("src")).toBe("/voice_yuelu/new_tts/labs/sample?promptId=1&v=abc");
    expect(within(card(1)).getByRole("button", { name: "停止试听「音色1」" })).toHaveAttribute("aria-pressed", "true");

    await userEvent.click(within(card(2)).getByRole("button", { name: "试听「音色2」" }));
    await waitFor(() => expect(card(2).dataset.playing).toBe("1"));
    expect(card(1).dataset.playing).toBe("0");
    expect(screen.getAllByTestId("voice-card").filter((c) => c.dataset.playing === "1")).toHaveLength(1);
    expect(audio.getAttribute("src")).toContain("promptId=2");

    await userEvent.click(within(card(2)).getByRole("button", { name: "停止试听「音色2」" }));
    await waitFor(() => expect(card(2).dataset.playing).toBe("0"));
    expect(screen.getAllByTestId("voice-card").filter((c) => c.dataset.playing === "1")).toHaveLength(0);

    // played again: its sample's address is known, no second try_listen
    await userEvent.click(within(card(1)).getByRole("button", { name: "试听「音色1」" }));
    await waitFor(() => expect(card(1).dataset.playing).toBe("1"));
    expect(api.callsTo("/try_listen")).toHaveLength(2);
    expect(media.played.length).toBe(3);

    // the end of the sample clears the flag
    audio.dispatchEvent(new Event("ended"));
    await waitFor(() => expect(card(1).dataset.playing).toBe("0"));
  });

  it("'use this voice' stores the voice bank and opens text to speech with the voice chosen", async () => {
    const api = library({
      "POST /tts/start_tts": ({ body }) => ({ ...(body as object), taskId: 5 }),
    });
    const { router } = renderApp("/voice-library");
    await screen.findAllByTestId("voice-card");
    await userEvent.click(within(card(2)).getByRole("button", { name: "使用此音色「音色2」" }));

    await waitFor(() => expect(router.state.location.pathname).toBe("/textToVoice"));
    expect(JSON.parse(readStorage(StorageKey.voiceBank)!)).toMatchObject({ promptId: 2, nameEn: "Voice 2" });
    expect(await screen.findByTestId("voice-name")).toHaveTextContent("音色2");
    expect(screen.getByTestId("voice-picker").dataset.promptId).toBe("2");

    await userEvent.type(screen.getByTestId("tts-text"), "Hello there");
    await userEvent.click(screen.getByTestId("generate"));
    await waitFor(() => expect(api.callsTo("/start_tts")).toHaveLength(1));
    expect(api.callsTo("/start_tts")[0]!.body).toMatchObject({ text: "Hello there", promptId: 2, format: "mp3" });
  });

  it("leaving /transaudio clears the stored voice bank (spec §4)", async () => {
    library();
    writeStorage(StorageKey.voiceBank, JSON.stringify({ promptId: 2, nameZh: "音色2", nameEn: "Voice 2" }));
    const { router } = renderApp("/transaudio");
    await screen.findByTestId("upload-zone");
    expect(readStorage(StorageKey.voiceBank)).not.toBeNull();
    await router.navigate("/textToVoice");
    await screen.findByTestId("voice-picker");
    expect(readStorage(StorageKey.voiceBank)).toBeNull();
    expect(screen.getByTestId("voice-name")).toHaveTextContent("默认音色");
  });

  it("is in English too", async () => {
    library();
    setLang("en");
    renderApp("/voice-library");
    await screen.findAllByTestId("voice-card");
    expect(screen.getByRole("combobox", { name: "Gender" })).toBeInTheDocument();
    expect(within(card(1)).getByRole("button", { name: "Listen to 音色1" })).toBeInTheDocument();
    expect(within(card(1)).getByRole("button", { name: "Use this voice: 音色1" })).toHaveTextContent("Use this voice");
  });

  it("offers my own voices under 'mine': a ready one is used like a library voice, a training one is not", async () => {
    const mine = (voiceId: number, status: number, extra: object = {}) => ({
      voiceId,
      name: `我的声音${voiceId}`,
      language: "zh",
      method: "match",
      status,
      progress: status === 2 ? 100 : 40,
      sampleSeconds: 20,
      baseVoiceName: "晓晓",
      profile: null,
      previewUrl: status === 2 ? `/voice_yuelu/voice/my_voice/preview?voiceId=${voiceId}` : "",
      sampleUrl: "",
      createTime: 1,
      updateTime: 1,
      ...extra,
    });
    const api = library({
      "GET /voice/my_voice/list": () => ({ total: 2, list: [mine(7, 2), mine(8, 1)] }),
      "POST /tts/start_tts": ({ body }) => ({ ...(body as object), taskId: 5 }),
    });
    const { router } = renderApp("/voice-library");
    await screen.findAllByTestId("voice-card");
    await userEvent.click(screen.getByRole("radio", { name: "我的声音" }));
    const cards = await screen.findAllByTestId("my-voice-card");
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveTextContent("由「晓晓」匹配而来");
    expect(cards[1]).toHaveTextContent("训练中 40%");
    expect(within(cards[1]!).getByRole("button", { name: "使用此音色「我的声音8」" })).toBeDisabled();
    await userEvent.click(within(cards[0]!).getByRole("button", { name: "使用此音色「我的声音7」" }));

    await waitFor(() => expect(router.state.location.pathname).toBe("/textToVoice"));
    await waitFor(() => expect(screen.getByTestId("voice-picker").dataset.myVoiceId).toBe("7"));
    await userEvent.type(screen.getByTestId("tts-text"), "你好");
    await userEvent.click(screen.getByTestId("generate"));
    await waitFor(() => expect(api.callsTo("/start_tts")).toHaveLength(1));
    expect(api.callsTo("/start_tts")[0]!.body).toMatchObject({ text: "你好", myVoiceId: 7 });
  });

  it("says how to make a voice when I have none", async () => {
    library({ "GET /voice/my_voice/list": () => ({ total: 0, list: [] }) });
    renderApp("/voice-library");
    await screen.findAllByTestId("voice-card");
    await userEvent.click(screen.getByRole("radio", { name: "我的声音" }));
    expect(await screen.findByText(/还没有我的声音/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "去创建我的声音" })).toHaveAttribute("href", "/myVoice");
  });
});
