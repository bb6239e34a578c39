/**
 * At most `size` calls at once; the others wait in order. One per process (LLM_CONCURRENCY): several notes
 * jobs share it, so a small local server (Ollama answers one request at a time) is not flooded.
 */
export class CallLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {}

  async run<T>(call: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await call();
    } finally {
      const next = this.waiting.shift();
      // the slot passes straight to the next caller, so a newcomer cannot take it in between
      if (next) next();
      else this.running--;
    }
  }

  get active(): number {
    return this.running;
  }
}

const perProcess = new Map<number, CallLimit>();

/** The process's limit for this size (the same object for every client made with the same config). */
export function processCallLimit(size: number): CallLimit {
  let limit = perProcess.get(size);
  if (!limit) {
    limit = new CallLimit(size);
    perProcess.set(size, limit);
  }
  return limit;
}
