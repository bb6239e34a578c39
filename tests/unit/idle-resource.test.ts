import { afterEach, describe, expect, it, vi } from "vitest";
import {
  IdleResource,
  loadedResources,
  releaseIdleResources,
  setEngineIdleSeconds,
} from "../../apps/worker/src/engines/idle.ts";

/**
 * Engines and models are loaded by the first job that needs them and let go after ENGINE_IDLE_SECONDS
 * unused (issue 44: nothing heavy is held by an idle worker) — never under a job that uses them.
 */
afterEach(async () => {
  vi.useRealTimers();
  setEngineIdleSeconds(300);
  await releaseIdleResources();
});

function counted(name: string) {
  const events: string[] = [];
  let made = 0;
  const resource = new IdleResource(
    name,
    async () => {
      made += 1;
      events.push(`load ${made}`);
      return { id: made };
    },
    (value) => {
      events.push(`unload ${value.id}`);
    },
  );
  return { resource, events };
}

describe("an idle resource", () => {
  it("loads on first use, stays for the next job, and is let go after the idle time", async () => {
    vi.useFakeTimers();
    setEngineIdleSeconds(60);
    const { resource, events } = counted("test model a");
    expect(resource.loaded).toBe(false);
    expect(await resource.use((m) => m.id)).toBe(1);
    expect(await resource.use((m) => m.id)).toBe(1);
    expect(loadedResources()).toContain("test model a");
    await vi.advanceTimersByTimeAsync(59_000);
    expect(resource.loaded).toBe(true);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(resource.loaded).toBe(false);
    expect(events).toEqual(["load 1", "unload 1"]);
    // the next job loads it again
    expect(await resource.use((m) => m.id)).toBe(2);
  });

  it("is never let go while a job uses it, however long the job", async () => {
    vi.useFakeTimers();
    setEngineIdleSeconds(1);
    const { resource, events } = counted("test model b");
    let finish = () => {};
    const job = resource.use(() => new Promise<void>((resolve) => (finish = resolve)));
    await vi.advanceTimersByTimeAsync(10_000);
    await resource.release();
    expect(resource.loaded).toBe(true);
    finish();
    await job;
    await vi.advanceTimersByTimeAsync(1_500);
    expect(resource.loaded).toBe(false);
    expect(events).toEqual(["load 1", "unload 1"]);
  });

  it("tries a failed load again at the next job", async () => {
    let attempts = 0;
    const resource = new IdleResource("test model c", async () => {
      attempts += 1;
      if (attempts === 1) throw new Error("not yet");
      return "ready";
    });
    await expect(resource.use((v) => v)).rejects.toThrow("not yet");
    expect(resource.loaded).toBe(false);
    expect(await resource.use((v) => v)).toBe("ready");
  });
});
