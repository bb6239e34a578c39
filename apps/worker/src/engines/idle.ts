import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * Something heavy (a speech model, a WebAssembly engine, a parsed soundfont) that is loaded by the
 * first job that needs it and let go once no job has used it for ENGINE_IDLE_SECONDS (300 by default),
 * so an idle worker holds none of it. Jobs reach it through `use`, which keeps it loaded while they
 * run: it is never let go under a job. Letting go calls `unload` (closing native sessions at once
 * rather than whenever the garbage collector gets to them) and drops every reference to it.
 */
export class IdleResource<T> {
  private loading?: Promise<T>;
  private users = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    readonly name: string,
    private readonly load: () => Promise<T>,
    private readonly unload?: (value: T) => unknown,
  ) {
    every.add(this as IdleResource<unknown>);
  }

  /** whether it is loaded (or loading) now */
  get loaded(): boolean {
    return this.loading !== undefined;
  }

  /** Runs `fn` with the resource, loading it first when it is not loaded; it stays loaded until `fn` settles. */
  async use<R>(fn: (value: T) => R | Promise<R>): Promise<R> {
    this.users += 1;
    clearTimeout(this.timer);
    try {
      return await fn(await this.get());
    } finally {
      this.users -= 1;
      if (this.users === 0) this.scheduleRelease();
    }
  }

  /** Loads it now (a job about to start, a check that it loads) and starts its idle clock. */
  async warm(): Promise<void> {
    await this.use(() => undefined);
  }

  /** Lets go of it now unless a job is using it. */
  async release(): Promise<void> {
    clearTimeout(this.timer);
    const loading = this.loading;
    if (!loading || this.users > 0) return;
    this.loading = undefined;
    const value = await loading.catch(() => undefined);
    if (value !== undefined) await this.unload?.(value);
    // Native memory (an ONNX session behind a small JavaScript object) is freed when that object is
    // collected, and an idle process may not collect for hours: collect now.
    collectGarbage();
  }

  private get(): Promise<T> {
    if (!this.loading) {
      const loading = this.load();
      this.loading = loading;
      // a failed load is tried again by the next job
      loading.catch(() => {
        if (this.loading === loading) this.loading = undefined;
      });
    }
    return this.loading;
  }

  private scheduleRelease() {
    clearTimeout(this.timer);
    if (!this.loading) return;
    this.timer = setTimeout(() => void this.release().catch(() => {}), idleSeconds * 1000);
    this.timer.unref();
  }
}

const every = new Set<IdleResource<unknown>>();

let gc: (() => void) | undefined;
/** A full garbage collection (V8's `gc`, made reachable once without restarting the process). */
function collectGarbage(): void {
  try {
    if (!gc) {
      setFlagsFromString("--expose-gc");
      gc = runInNewContext("gc") as () => void;
    }
    gc();
  } catch {
    // not available: the collector gets to it in its own time
  }
}
let idleSeconds = 300;

/** ENGINE_IDLE_SECONDS: how long an unused resource stays loaded (the worker sets it from its config). */
export function setEngineIdleSeconds(seconds: number): void {
  idleSeconds = seconds;
}

/** ENGINE_IDLE_SECONDS in milliseconds, for holders that keep their own clock. */
export function engineIdleMs(): number {
  return idleSeconds * 1000;
}

/** What is loaded now, by name (/readyz, tests). */
export function loadedResources(): string[] {
  return [...every].filter((r) => r.loaded).map((r) => r.name);
}

/** Lets go of everything no job is using (a worker stopping, tests). */
export async function releaseIdleResources(): Promise<void> {
  await Promise.all([...every].map((r) => r.release()));
}
