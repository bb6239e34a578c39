import { waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { signInCookies } from "@/testing/fake-api.ts";
import { FakeXhr, installFakeXhr } from "@/testing/fake-xhr.ts";
import { RecordingLiveSessions } from "../live/recording-sessions.ts";
import { uploads } from "./upload-store.ts";

/**
 * A recording made with live captions names their sessions in its upload (`liveSessionId`), so its
 * transcription is not charged again for what the captions already were (docs/live.md "Metering").
 */

function metadataOf(xhr: FakeXhr): Record<string, string> {
  return Object.fromEntries(
    (xhr.headers["Upload-Metadata"] ?? "").split(",").map((pair) => {
      const [key, value = ""] = pair.trim().split(" ");
      return [key, new TextDecoder().decode(Uint8Array.from(atob(value), (c) => c.charCodeAt(0)))];
    }),
  );
}

async function creation(): Promise<FakeXhr> {
  await waitFor(() => expect(FakeXhr.instances.length).toBeGreaterThan(0));
  const xhr = FakeXhr.instances[0]!;
  expect(xhr.method).toBe("POST");
  return xhr;
}

const captions = (over: Partial<Parameters<RecordingLiveSessions["update"]>[0]>) => ({
  status: "live" as const,
  finals: [],
  partial: "",
  sessionIds: [],
  ...over,
});

beforeEach(() => {
  localStorage.clear();
  setLang("zh");
  signInCookies();
  installFakeXhr();
  uploads.setDurationReader(async () => 60);
});
afterEach(() => uploads.reset());

describe("a recording's upload names its live-caption sessions", () => {
  it("a recorded file sends them as the liveSessionId metadata", async () => {
    await uploads.add([new File(["x"], "录音.webm", { type: "audio/webm" })], null, { liveSessionId: "w1.a,w1.b" });
    expect(metadataOf(await creation())).toMatchObject({ filename: "录音.webm", liveSessionId: "w1.a,w1.b" });
  });

  it("an upload begun with the recording is created once its captions have a session", async () => {
    const live = new RecordingLiveSessions();
    uploads.addRecording({ id: "rec-1", fileName: "录音.webm", mimeType: "audio/webm" }, null, undefined, live.soon());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(FakeXhr.instances).toHaveLength(0);
    live.update(captions({ sessionIds: ["w1.first"] }));
    expect(metadataOf(await creation())).toMatchObject({ liveSessionId: "w1.first" });
  });

  it("…or at once, without the field, when the captions have none", async () => {
    const live = new RecordingLiveSessions();
    uploads.addRecording({ id: "rec-2", fileName: "录音.webm", mimeType: "audio/webm" }, null, undefined, live.soon());
    live.update(captions({ status: "refused", message: "存储额度不足" }));
    const meta = metadataOf(await creation());
    expect(meta.filename).toBe("录音.webm");
    expect(meta.liveSessionId).toBeUndefined();
  });
});

describe("the sessions of one recording", () => {
  it("waits a few seconds at most for the first", async () => {
    const live = new RecordingLiveSessions();
    expect(await live.soon(30)).toBeUndefined();
    live.update(captions({ sessionIds: ["w.1", "w.2"] }));
    expect(await live.soon(30)).toBe("w.1,w.2");
    expect(live.joined()).toBe("w.1,w.2");
  });
});
