import type { Segment } from "@yuelu/contracts";
import { StatusCode } from "@yuelu/contracts/constants";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AUTOSAVE_MS, browserDraftStore, DraftSaver, type SavedEdit, type StoredDraft } from "./autosave.ts";

const seg = (text: string, spkName = "说话人1"): Segment => ({ spkName, startTime: 0, endTime: 1000, text });
const SEGMENTS = [seg("第一句。"), seg("第二句。", "说话人2"), seg("第三句。")];

const conflict = () => Object.assign(new Error("changed"), { code: StatusCode.TranscriptChanged, kind: "business" });
const offline = () => Object.assign(new Error("网络异常"), { code: 0, kind: "network" });
const refused = () => Object.assign(new Error("文字过长"), { code: StatusCode.InvalidParams, kind: "business" });

/** A saver over a fake server: `server` is the transcript there; `answers` overrides the next sends. */
function setup(options: { version?: number; segments?: Segment[]; stored?: StoredDraft[] } = {}) {
  const server = { version: options.version ?? 3, segments: structuredClone(options.segments ?? SEGMENTS) };
  const sent: (SavedEdit & { version?: number })[] = [];
  const answers: (() => Promise<{ version: number }>)[] = [];
  const store = { drafts: options.stored ?? ([] as StoredDraft[]) };
  const saved: [SavedEdit, number | undefined][] = [];
  const send = vi.fn(async (edit: SavedEdit & { version?: number }) => {
    sent.push(edit);
    const answer = answers.shift();
    if (answer) return answer();
    if (edit.version !== undefined && edit.version !== server.version) throw conflict();
    if (edit.text !== undefined) server.segments[edit.index]!.text = edit.text;
    if (edit.spkName !== undefined) server.segments[edit.index]!.spkName = edit.spkName;
    server.version += 1;
    return { version: server.version };
  });
  const saver = new DraftSaver({
    send,
    reread: async () => structuredClone(server),
    onSaved: (edit, version) => saved.push([edit, version]),
    onReread: () => {},
    store: {
      load: () => store.drafts,
      save: (drafts) => {
        store.drafts = drafts;
      },
    },
  });
  saver.sync(server.version, structuredClone(server.segments));
  return { saver, server, sent, answers, send, store, saved };
}

/** Lets the saver's promises settle (fake timers hold only the timers). */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("DraftSaver: edits saved as they are typed (issue 43)", () => {
  it("saves a moment after the typing stops, once, with the version; then says saved", async () => {
    const { saver, sent, server, store, saved } = setup();
    saver.edit(1, "第二句");
    saver.edit(1, "第二句改");
    expect(saver.getSnapshot()).toMatchObject({ state: "pending", dirty: true });
    expect(saver.getSnapshot().drafts.get(1)).toBe("第二句改");
    // kept in the browser at once: a reload now gives it back
    expect(store.drafts).toEqual([[1, "第二句改", "第二句。"]]);
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS - 1);
    saver.edit(1, "第二句改好了。");
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS - 1);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([{ index: 1, text: "第二句改好了。", version: 3 }]);
    expect(server.segments[1]!.text).toBe("第二句改好了。");
    expect(saved).toEqual([[{ index: 1, text: "第二句改好了。" }, 4]]);
    expect(saver.getSnapshot()).toMatchObject({ state: "saved", dirty: false });
    expect(saver.getSnapshot().drafts.size).toBe(0);
    expect(store.drafts).toEqual([]);

    // the next edit is made on the version the last one answered
    saver.edit(0, "第一句！");
    await saver.flush();
    expect(sent[1]).toEqual({ index: 0, text: "第一句！", version: 4 });
  });

  it("typing on while an edit is on its way: the newer words follow after their own pause", async () => {
    const { saver, sent, answers, server } = setup();
    let answer!: (v: { version: number }) => void;
    answers.push(() => new Promise((resolve) => (answer = resolve)));
    saver.edit(0, "第一");
    const flushing = saver.flush();
    expect(saver.getSnapshot().state).toBe("saving");
    saver.edit(0, "第一句又改了。");
    server.segments[0]!.text = "第一";
    server.version = 4;
    answer({ version: 4 });
    await flushing;
    expect(saver.getSnapshot()).toMatchObject({ state: "pending", dirty: true });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    expect(sent.map((e) => [e.text, e.version])).toEqual([
      ["第一", 3],
      ["第一句又改了。", 4],
    ]);
    expect(saver.getSnapshot().state).toBe("saved");
  });

  it("Escape before the pause: nothing is sent", async () => {
    const { saver, send } = setup();
    saver.edit(2, "不要");
    saver.discard(2);
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS * 2);
    expect(send).not.toHaveBeenCalled();
    expect(saver.getSnapshot()).toMatchObject({ state: "idle", dirty: false });
  });

  it("offline: says so, keeps the draft, tries again later and at once when back online", async () => {
    const { saver, sent, answers, server } = setup();
    answers.push(
      () => Promise.reject(offline()),
      () => Promise.reject(offline()),
    );
    saver.edit(0, "离线时写的。");
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    expect(saver.getSnapshot()).toMatchObject({ state: "offline", dirty: true });
    expect(saver.getSnapshot().drafts.get(0)).toBe("离线时写的。");
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sent).toHaveLength(2);
    expect(saver.getSnapshot().state).toBe("offline");
    saver.online();
    await settle();
    expect(sent).toHaveLength(3);
    expect(server.segments[0]!.text).toBe("离线时写的。");
    expect(saver.getSnapshot()).toMatchObject({ state: "saved", dirty: false });
  });

  it("refused otherwise: the server's words, the draft kept", async () => {
    const { saver, answers } = setup();
    answers.push(() => Promise.reject(refused()));
    saver.edit(0, "x");
    await saver.flush();
    expect(saver.getSnapshot()).toMatchObject({ state: "error", error: "文字过长", dirty: true });
  });

  it("the version moved on for something else (the summary): sent again on the new version", async () => {
    const { saver, sent, server } = setup();
    server.version = 7; // a summary was written meanwhile; the lines are as they were
    saver.edit(1, "第二句改了。");
    await saver.flush();
    expect(sent.map((e) => e.version)).toEqual([3, 7]);
    expect(server.segments[1]!.text).toBe("第二句改了。");
    expect(saver.getSnapshot().state).toBe("saved");
  });

  it("the same line changed in another tab: a conflict — nothing overwritten, the text kept, reload offered", async () => {
    const { saver, sent, server, store } = setup();
    server.segments[1]!.text = "另一个标签页写的。";
    server.version = 4;
    saver.edit(1, "这个标签页写的。");
    await saver.flush();
    expect(sent).toHaveLength(1);
    expect(server.segments[1]!.text).toBe("另一个标签页写的。");
    expect(saver.getSnapshot()).toMatchObject({ state: "conflict", dirty: true });
    expect(saver.getSnapshot().drafts.get(1)).toBe("这个标签页写的。");

    // more typing is kept, not sent; a rename is refused
    saver.edit(1, "这个标签页写的，还在写。");
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS * 3);
    await expect(saver.rename({ index: 0, spkName: "王老师" })).rejects.toThrow();
    expect(sent).toHaveLength(1);
    expect(store.drafts).toEqual([[1, "这个标签页写的，还在写。", "第二句。"]]);

    // reload: the latest transcript, and the words typed here listed to copy back
    await saver.reload();
    expect(saver.getSnapshot()).toMatchObject({ state: "idle", dirty: false });
    expect(saver.getSnapshot().kept).toEqual([{ index: 1, text: "这个标签页写的，还在写。" }]);
    saver.edit(0, "重新载入后写的。");
    await saver.flush();
    expect(sent.at(-1)).toEqual({ index: 0, text: "重新载入后写的。", version: 4 });
    saver.dismissKept();
    expect(saver.getSnapshot().kept).toEqual([]);
  });

  it("a newer transcript read meanwhile that changed the line being typed: a conflict", () => {
    const { saver } = setup();
    saver.edit(2, "我的第三句。");
    saver.sync(5, [SEGMENTS[0]!, SEGMENTS[1]!, seg("别人的第三句。")]);
    expect(saver.getSnapshot().state).toBe("conflict");
  });

  it("renames go one at a time with the text edits, each on the version before it", async () => {
    const { saver, sent, server } = setup();
    saver.edit(0, "第一句改了。");
    await Promise.all([saver.rename({ index: 1, spkName: "王老师", renameAll: true }), saver.flush()]);
    expect(sent.map((e) => e.version)).toEqual([3, 4]);
    expect(server.segments[1]!.spkName).toBe("王老师");
    expect(server.version).toBe(5);
  });

  it("a reload gives back what was typed and not saved: sent when its line is as it was", async () => {
    const stored: StoredDraft[] = [
      [0, "关页前写的。", "第一句。"],
      [1, "第二句。", "旧的第二句。"], // the server has it already
    ];
    const { saver, sent, server, store } = setup({ stored });
    expect(saver.getSnapshot().drafts.get(0)).toBe("关页前写的。");
    expect(saver.getSnapshot().drafts.has(1)).toBe(false);
    await settle();
    expect(sent).toEqual([{ index: 0, text: "关页前写的。", version: 3 }]);
    expect(server.segments[0]!.text).toBe("关页前写的。");
    expect(store.drafts).toEqual([]);
  });

  it("a reload whose kept draft's line changed elsewhere meanwhile: a conflict, shown and not sent", async () => {
    const { saver, send } = setup({ stored: [[2, "我写的。", "更早的第三句。"]] });
    expect(saver.getSnapshot().state).toBe("conflict");
    expect(saver.getSnapshot().drafts.get(2)).toBe("我写的。");
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS * 2);
    expect(send).not.toHaveBeenCalled();
  });
});

describe("browserDraftStore", () => {
  it("keeps each record's drafts under one key, and removes the key when none is left", () => {
    let value: string | null = null;
    const storage = {
      read: () => value,
      write: (v: string) => {
        value = v;
      },
      remove: () => {
        value = null;
      },
    };
    const one = browserDraftStore(1, storage);
    const two = browserDraftStore(2, storage);
    one.save([[0, "a", "b"]]);
    two.save([[3, "c", "d"]]);
    expect(one.load()).toEqual([[0, "a", "b"]]);
    expect(two.load()).toEqual([[3, "c", "d"]]);
    one.save([]);
    expect(one.load()).toEqual([]);
    two.save([]);
    expect(value).toBeNull();
    value = "not json";
    expect(one.load()).toEqual([]);
    value = JSON.stringify({ 1: [[0, "ok", "base"], ["x"], [1, 2, 3]] });
    expect(one.load()).toEqual([[0, "ok", "base"]]);
  });
});
