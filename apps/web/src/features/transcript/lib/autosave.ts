import type { Segment } from "@yuelu/contracts";
import { StatusCode } from "@yuelu/contracts/constants";

/**
 * The detail page's edits (issue 43: no edit is ever lost). Typed text is a draft at once — kept in this
 * browser too, so a reload or a closed tab gives it back — and is saved a moment after typing stops, when
 * the box is left, and when the page is hidden or closed. Edits go one at a time, each naming the
 * transcript's version it was made on (docs/records-api.md "Versions"); the answer's version is the next.
 *
 * When the server says the transcript changed meanwhile (30002), the transcript is read again: if the
 * segment being saved is still as it was when the typing began (only the summary, a note or another line
 * changed), the edit is sent again on the new version; otherwise nothing is overwritten — the state is
 * "conflict", the typed text stays where it was typed, and the page offers to reload. Without a connection
 * the drafts wait and are sent again (with a growing pause, and at once when the browser is back online).
 */

export type SaveState = "idle" | "pending" | "saving" | "saved" | "offline" | "error" | "conflict";

export interface SaverSnapshot {
  state: SaveState;
  /** the text shown for each segment with an unsaved edit */
  drafts: ReadonlyMap<number, string>;
  /** after a reload past a conflict: the text that was typed and not saved, to copy back */
  kept: readonly KeptText[];
  /** the server's words for an edit refused otherwise (state "error") */
  error: string | null;
  /** unsaved edits exist (typed, or on their way): leaving now could lose them */
  dirty: boolean;
}

export interface KeptText {
  index: number;
  text: string;
}

export interface SavedEdit {
  index: number;
  text?: string;
  spkName?: string;
  renameAll?: boolean;
}

/** A draft as kept in the browser: [segment index, text typed, the segment's text the typing began from]. */
export type StoredDraft = [index: number, text: string, base: string];

export interface DraftStore {
  load(): StoredDraft[];
  save(drafts: StoredDraft[]): void;
}

export interface SaverDeps {
  /** update_para with the version; answers the new version */
  send(
    edit: SavedEdit & { version?: number },
    options: { keepalive: boolean },
  ): Promise<{ version?: number | undefined } | null>;
  /** get_text again */
  reread(): Promise<{ version?: number; segments: Segment[] }>;
  /** an edit was saved: the page's copy of the transcript follows */
  onSaved(edit: SavedEdit, version: number | undefined): void;
  /** the transcript read again: the page's copy becomes it */
  onReread(latest: { version?: number; segments: Segment[] }): void;
  store?: DraftStore;
  /** ms after the last keystroke (default AUTOSAVE_MS) */
  delayMs?: number;
  /** pauses between tries without a connection (default RETRY_MS) */
  retryMs?: readonly number[];
}

export const AUTOSAVE_MS = 700;
export const RETRY_MS = [2_000, 5_000, 10_000, 20_000, 30_000] as const;
/** An edit refused as made on an old version is sent again on the new one at most this often in a row. */
const MAX_RESENDS = 3;

interface Draft {
  text: string;
  /** the segment's text on the server this draft changes (updated as parts of it are saved) */
  base: string;
}

interface Rename {
  edit: SavedEdit & { spkName: string };
  /** the name the user saw on the segment */
  oldName: string;
  /** sent again after a conflict this many times */
  tries: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** An ApiError-like failure: a status code and its kind (lib/api-client.ts). */
interface Failure {
  code?: number;
  kind?: string;
  message?: string;
}

const isRetryable = (e: Failure) =>
  e.kind === "network" || e.code === 408 || (e.kind === "http" && (e.code ?? 0) >= 500);
const isConflict = (e: Failure) => e.code === StatusCode.TranscriptChanged;

export class DraftSaver {
  private version: number | undefined;
  private segments: readonly Segment[] = [];
  private readonly drafts = new Map<number, Draft>();
  private readonly renames: Rename[] = [];
  private state: SaveState = "idle";
  private kept: KeptText[] = [];
  private error: string | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retries = 0;
  private running: Promise<void> | null = null;
  private again = false;
  private keepalive = false;
  private restored = false;
  private snapshot: SaverSnapshot;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly deps: SaverDeps) {
    this.snapshot = this.makeSnapshot();
  }

  // ── the store React reads (useSyncExternalStore) ──
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getSnapshot = () => this.snapshot;

  /** Unsaved edits exist (typed, or on their way): leaving the page now could lose them. */
  get dirty(): boolean {
    return this.drafts.size > 0 || this.renames.length > 0;
  }

  /**
   * The page's copy of the transcript: its segments (what a draft begins from) and version. A newer version
   * read meanwhile is taken on; a draft whose segment changed under it is a conflict. The first call gives
   * back the drafts this browser kept.
   */
  sync(version: number | undefined, segments: readonly Segment[]): void {
    this.segments = segments;
    if (version !== undefined && (this.version === undefined || version > this.version)) {
      this.version = version;
      if (this.state !== "conflict" && !this.running && this.changedUnderDrafts()) this.setState("conflict");
    }
    if (!this.restored) {
      this.restored = true;
      this.restore();
    }
  }

  /** Typing in segment `index`: a draft now, saved a moment after the typing stops. */
  edit(index: number, text: string): void {
    const draft = this.drafts.get(index);
    if (draft) draft.text = text;
    else this.drafts.set(index, { text, base: this.segments[index]?.text ?? "" });
    this.persist();
    if (this.state !== "conflict") {
      if (this.state !== "saving") this.state = "pending";
      this.schedule(this.deps.delayMs ?? AUTOSAVE_MS);
    }
    this.emit();
  }

  /** Escape: the line goes back to its saved text. */
  discard(index: number): void {
    const draft = this.drafts.get(index);
    if (!draft) return;
    draft.text = draft.base;
    if (!this.running) this.drafts.delete(index);
    this.persist();
    if (this.drafts.size === 0 && this.state === "pending") this.state = "idle";
    this.emit();
  }

  /** A speaker rename (update_para with spkName): after the edits before it; rejects when refused. */
  rename(edit: SavedEdit & { spkName: string }): Promise<void> {
    const oldName = this.segments[edit.index]?.spkName ?? "";
    const done = new Promise<void>((resolve, reject) =>
      this.renames.push({ edit, oldName, tries: 0, resolve, reject }),
    );
    void this.flush();
    return done;
  }

  /** Sends every draft now (the box was left, the page is hidden or closing: `keepalive`). */
  flush(options: { keepalive?: boolean } = {}): Promise<void> {
    clearTimeout(this.timer);
    if (options.keepalive) this.keepalive = true;
    if (this.state === "conflict") {
      this.failRenames(new Error("conflict"));
      return Promise.resolve();
    }
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /**
   * After a conflict: the transcript as it is now replaces the page's, and what was typed and not saved is
   * kept aside (shown to copy back) — never sent over the other change.
   */
  async reload(): Promise<void> {
    const latest = await this.deps.reread();
    this.deps.onReread(latest);
    this.segments = latest.segments;
    if (latest.version !== undefined) this.version = latest.version;
    for (const [index, draft] of this.drafts) {
      if (draft.text !== (latest.segments[index]?.text ?? "")) this.kept.push({ index, text: draft.text });
    }
    this.drafts.clear();
    this.persist();
    this.error = null;
    this.setState("idle");
  }

  /** The kept texts were read (or copied): they go. */
  dismissKept(): void {
    this.kept = [];
    this.emit();
  }

  /** The page shows the saver (again): drafts waiting are saved after the pause. */
  start(): void {
    if (this.drafts.size > 0 && (this.state === "pending" || this.state === "offline"))
      this.schedule(this.deps.delayMs ?? AUTOSAVE_MS);
  }

  // ── sending ──
  private async run(): Promise<void> {
    do {
      this.again = false;
      clearTimeout(this.retryTimer);
      // the renames waiting, then the drafts as they are now (typing meanwhile waits for its own pause)
      while (this.renames.length > 0) {
        if (!(await this.sendRename(this.renames[0]!))) return;
      }
      for (const index of [...this.drafts.keys()]) {
        if (!(await this.sendDraft(index))) return;
      }
    } while (this.again);
    this.keepalive = false;
    if (this.drafts.size > 0) {
      // typed (or undone) while the last one was on its way: saved after its own pause
      this.setState("pending");
      this.schedule(this.deps.delayMs ?? AUTOSAVE_MS);
    } else if (this.state !== "idle") this.setState("saved");
  }

  /** One draft; false when sending stops (offline, refused, conflict). `tries`: sent again after a conflict. */
  private async sendDraft(index: number, tries = 0): Promise<boolean> {
    const draft = this.drafts.get(index);
    if (!draft) return true;
    if (draft.text === draft.base) {
      this.drafts.delete(index);
      this.persist();
      return true;
    }
    const text = draft.text;
    this.setState("saving");
    try {
      const answer = await this.deps.send(this.withVersion({ index, text }), { keepalive: this.keepalive });
      this.saved({ index, text }, answer?.version);
      const now = this.drafts.get(index);
      if (now && now.text === text) this.drafts.delete(index);
      else if (now) now.base = text;
      this.persist();
      return true;
    } catch (error) {
      const again = await this.failed(error as Failure, () => {
        const seg = this.segments[index];
        if (seg?.text === text) {
          // the same words were saved elsewhere: nothing left to do
          this.drafts.delete(index);
          this.persist();
          return true;
        }
        return seg !== undefined && seg.text === draft.base && tries < MAX_RESENDS;
      });
      return again && this.sendDraft(index, tries + 1);
    }
  }

  private async sendRename(rename: Rename): Promise<boolean> {
    this.setState("saving");
    try {
      const answer = await this.deps.send(this.withVersion(rename.edit), { keepalive: this.keepalive });
      this.saved(rename.edit, answer?.version);
      this.renames.shift();
      rename.resolve();
      return true;
    } catch (error) {
      rename.tries += 1;
      const going = await this.failed(
        error as Failure,
        () => this.segments[rename.edit.index]?.spkName === rename.oldName && rename.tries <= MAX_RESENDS,
        true,
      );
      if (!going) {
        this.renames.shift();
        rename.reject(error);
        // the drafts still go, unless the transcript changed under them or there is no connection
        if (this.state === "error") this.error = null;
        if (this.state === "error" || this.state === "saving") this.setState(this.dirty ? "pending" : "idle");
        return this.state !== "conflict" && this.state !== "offline";
      }
      return true;
    }
  }

  /**
   * A refused edit: a version conflict is checked against the transcript read again (`stillApplies`: the
   * edit's segment is as it was; true → sent again on the new version); no connection waits and tries again;
   * anything else stops with the server's words. Answers whether sending goes on.
   */
  private async failed(error: Failure, stillApplies: () => boolean, isRename = false): Promise<boolean> {
    if (isConflict(error)) {
      let latest: { version?: number; segments: Segment[] };
      try {
        latest = await this.deps.reread();
      } catch (e) {
        return this.offlineOr(e as Failure, isRename);
      }
      const sameShape = latest.segments.length === this.segments.length;
      this.deps.onReread(latest);
      this.segments = latest.segments;
      if (latest.version !== undefined) this.version = latest.version;
      if (sameShape && stillApplies()) return true;
      this.setState("conflict");
      this.failRenames(error);
      return false;
    }
    return this.offlineOr(error, isRename);
  }

  private offlineOr(error: Failure, isRename: boolean): boolean {
    if (isRetryable(error)) {
      this.setState("offline");
      if (!isRename || this.drafts.size > 0) this.retryLater();
      return false;
    }
    this.error = error.message ?? null;
    this.setState("error");
    return false;
  }

  private retryLater(): void {
    const delays = this.deps.retryMs ?? RETRY_MS;
    const delay = delays[Math.min(this.retries, delays.length - 1)] ?? 30_000;
    this.retries += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.flush(), delay);
  }

  /** The browser is back online: try now. */
  online(): void {
    if (this.state === "offline") {
      this.retries = 0;
      void this.flush();
    }
  }

  private saved(edit: SavedEdit, version: number | undefined): void {
    if (version !== undefined) this.version = version;
    this.retries = 0;
    this.error = null;
    this.deps.onSaved(edit, version);
  }

  private withVersion<T extends SavedEdit>(edit: T): T & { version?: number } {
    return this.version === undefined ? edit : { ...edit, version: this.version };
  }

  private failRenames(error: unknown): void {
    for (const rename of this.renames.splice(0)) rename.reject(error);
  }

  /** A segment with a draft changed on the server to something else than either side. */
  private changedUnderDrafts(): boolean {
    for (const [index, draft] of this.drafts) {
      const now = this.segments[index]?.text;
      if (now !== draft.base && now !== draft.text) return true;
    }
    return false;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), ms);
  }

  // ── kept in the browser ──
  private persist(): void {
    this.deps.store?.save([...this.drafts].map(([index, d]) => [index, d.text, d.base] as StoredDraft));
  }

  /**
   * The drafts a reload or a closed tab left: one the server already has goes; one whose segment is as it
   * was is a draft again (and saved); one whose segment changed meanwhile is a conflict (shown, not sent).
   */
  private restore(): void {
    const stored = this.deps.store?.load() ?? [];
    let conflict = false;
    for (const [index, text, base] of stored) {
      const now = this.segments[index]?.text;
      if (now === text) continue;
      if (now === undefined) {
        // the line is gone (the transcript was cut): the words are shown to copy
        this.kept.push({ index, text });
        continue;
      }
      this.drafts.set(index, { text, base });
      if (now !== base) conflict = true;
    }
    this.persist();
    if (this.drafts.size === 0) {
      if (this.kept.length) this.emit();
      return;
    }
    if (conflict) this.setState("conflict");
    else {
      this.state = "pending";
      this.schedule(0);
      this.emit();
    }
  }

  private setState(state: SaveState): void {
    this.state = state;
    this.emit();
  }

  private makeSnapshot(): SaverSnapshot {
    return {
      state: this.state,
      drafts: new Map([...this.drafts].map(([i, d]) => [i, d.text])),
      kept: this.kept,
      error: this.error,
      dirty: this.dirty,
    };
  }

  private emit(): void {
    this.snapshot = this.makeSnapshot();
    for (const listener of this.listeners) listener();
  }
}

/** The drafts of one record, kept in localStorage under one key for every record (cleared on logout). */
export function browserDraftStore(
  fileId: number,
  storage: { read(): string | null; write(value: string): void; remove(): void },
): DraftStore {
  const all = (): Record<string, StoredDraft[]> => {
    try {
      const value = JSON.parse(storage.read() ?? "{}") as unknown;
      return value && typeof value === "object" && !Array.isArray(value)
        ? (value as Record<string, StoredDraft[]>)
        : {};
    } catch {
      return {};
    }
  };
  return {
    load() {
      const drafts = all()[String(fileId)];
      return Array.isArray(drafts)
        ? drafts.filter(
            (d): d is StoredDraft =>
              Array.isArray(d) && Number.isInteger(d[0]) && typeof d[1] === "string" && typeof d[2] === "string",
          )
        : [];
    },
    save(drafts) {
      const next = all();
      if (drafts.length) next[String(fileId)] = drafts;
      else delete next[String(fileId)];
      if (Object.keys(next).length) storage.write(JSON.stringify(next));
      else storage.remove();
    },
  };
}
