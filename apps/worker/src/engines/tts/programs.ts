import { spawn } from "node:child_process";
import path from "node:path";

/** Running the command-line engines (espeak-ng, festival) without a shell; runtime/tools.ts finds them. */

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}

/** Runs `program` with `input` on stdin; rejects with its stderr on a non-zero exit. */
export function runProgram(
  program: string,
  args: readonly string[],
  options: { input?: string; signal?: AbortSignal; timeoutMs?: number; onStdout?: (chunk: Buffer) => void } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      stdio: ["pipe", "pipe", "pipe"],
      signal: options.signal,
      timeout: options.timeoutMs,
      killSignal: "SIGKILL",
    });
    const out: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out.push(chunk);
      options.onStdout?.(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 8000) stderr += chunk.toString();
    });
    child.stdin.on("error", () => {});
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) resolve({ stdout: Buffer.concat(out), stderr });
      else
        reject(
          new Error(
            `${path.basename(program)} failed (${signal ? `killed by ${signal}` : `exit ${code}`}): ${stderr.trim().slice(0, 500)}`,
          ),
        );
    });
    child.stdin.end(options.input ?? "");
  });
}

/**
 * `work(item, index)` over `items` with at most `limit` running at once; results in input order. The
 * first failure stops new work and rejects (running items finish on their own or by `signal`).
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed: unknown;
  const lane = async () => {
    while (failed === undefined && next < items.length) {
      signal?.throwIfAborted();
      const i = next++;
      try {
        results[i] = await work(items[i]!, i);
      } catch (error) {
        failed ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failed !== undefined) throw failed;
  return results;
}
