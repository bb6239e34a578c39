import { type ChildProcess, execFile, spawn } from "node:child_process";
import { chown, mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

/**
 * PostgreSQL and Redis of the faults suite's own, on spare ports, so a test can stop and restart
 * them (the shared servers of the other suites must never be touched).
 */
const run = promisify(execFile);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** The folder of PostgreSQL's programs (initdb, pg_ctl), or null when it is not installed here. */
export async function postgresBin(): Promise<string | null> {
  const base = "/usr/lib/postgresql";
  const versions = await readdir(base).catch(() => [] as string[]);
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  return newest ? path.join(base, newest, "bin") : null;
}

export interface OwnService {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** initdb + pg_ctl as the `postgres` user when this runs as root (PostgreSQL refuses root). */
export async function startOwnPostgres(bin: string): Promise<OwnService> {
  const dir = await mkdtemp(path.join(tmpdir(), "yuelu-faults-pg-"));
  const root = process.getuid?.() === 0;
  if (root) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    await chown(dir, Number(stdout), Number(gid));
  }
  const as = (program: string, args: string[]) =>
    root
      ? run("runuser", ["-u", "postgres", "--", path.join(bin, program), ...args])
      : run(path.join(bin, program), args);
  const data = path.join(dir, "data");
  await as("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const pgCtl = (action: "start" | "stop") =>
    action === "start"
      ? as("pg_ctl", [
          "-D",
          data,
          "-w",
          "-l",
          path.join(dir, "log"),
          "-o",
          `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
          "start",
        ])
      : as("pg_ctl", ["-D", data, "-w", "-m", "fast", "stop"]);
  await pgCtl("start");
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => void (await pgCtl("stop")),
    start: async () => void (await pgCtl("start")),
    async close() {
      await pgCtl("stop").catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** redis-server with an append-only file, so what was queued survives a restart (as in production). */
export async function startOwnRedis(): Promise<OwnService> {
  const dir = await mkdtemp(path.join(tmpdir(), "yuelu-faults-redis-"));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        dir,
        "--appendonly",
        "yes",
        "--appendfsync",
        "always",
        "--save",
        "",
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve, reject) => {
      let out = "";
      child?.stdout?.on("data", (d) => {
        out += d;
        if (out.includes("Ready to accept connections")) resolve();
      });
      child?.once("exit", (code) => reject(new Error(`redis-server exited ${code}: ${out.slice(-2000)}`)));
    });
  };
  const stop = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child?.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
