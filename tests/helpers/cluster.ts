import { spawn } from "node:child_process";
import path from "node:path";

/** What scripts/cluster.mjs prints once every node is ready. */
export interface ClusterInfo {
  front: string;
  apis: { url: string; pid: number }[];
  workers: { pid: number }[];
}

export interface RunningCluster extends ClusterInfo {
  /** the nodes' recent log lines (for a failing test's message) */
  output(): string;
  /**
   * Restarts one node ("api-1", "worker-2"): SIGTERM, wait for it to exit, start it again, wait until
   * it is ready. Resolves with the new process id.
   */
  restart(node: string, timeoutMs?: number): Promise<number>;
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, "../..");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts `node scripts/cluster.mjs` (N APIs, M workers, the front) and waits until it says ready. */
export async function startCluster(options: {
  apis: number;
  workers: number;
  port: number;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
}): Promise<RunningCluster> {
  const args = ["--apis", String(options.apis), "--workers", String(options.workers), "--port", String(options.port)];
  const child = spawn(process.execPath, ["scripts/cluster.mjs", ...args, "--data-dir", options.dataDir], {
    cwd: root,
    env: options.env,
    // stdin: the script's commands (restart api-1…)
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stderr?.on("data", (d) => (output = (output + d).slice(-50_000)));
  let stdout = "";
  const info = await new Promise<ClusterInfo>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the cluster did not start:\n${output.slice(-4000)}`)),
      options.timeoutMs ?? 150_000,
    );
    child.stdout?.on("data", (d) => {
      stdout += d;
      const line = stdout.split("\n").find((l) => l.startsWith("{"));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as ClusterInfo);
      }
    });
    child.once("exit", (code) => reject(new Error(`cluster.mjs exited ${code}:\n${output.slice(-4000)}`)));
  });
  return {
    ...info,
    output: () => output,
    async restart(node, timeoutMs = 120_000) {
      const seen = stdout.length;
      child.stdin?.write(`restart ${node}\n`);
      const start = Date.now();
      for (;;) {
        for (const line of stdout.slice(seen).split("\n")) {
          if (!line.startsWith("{")) continue;
          const answer = JSON.parse(line) as { restarted?: string; pid?: number; error?: string };
          if (answer.error) throw new Error(answer.error);
          if (answer.restarted === node) return answer.pid as number;
        }
        if (child.exitCode !== null) throw new Error(`cluster.mjs exited:\n${output.slice(-4000)}`);
        if (Date.now() - start > timeoutMs) {
          throw new Error(`${node} did not come back in ${timeoutMs} ms:\n${output.slice(-4000)}`);
        }
        await sleep(100);
      }
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, sleep(30_000)]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}
