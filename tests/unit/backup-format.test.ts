import { execFile } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { ConfigError, loadConfig } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCron } from "../../packages/runtime/src/backup/cron.ts";
import { backupFileName, pruneBackups } from "../../packages/runtime/src/backup/schedule.ts";
import { listTar, readEntry, TarWriter } from "../../packages/runtime/src/backup/tar.ts";

/** The backup archive (a plain tar any `tar` reads) and BACKUP_CRON / BACKUP_KEEP's rules. */
const exec = promisify(execFile);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-backup-format-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe("the backup archive", () => {
  const longKey = `files/media/12/${"x".repeat(120)}.mp3`;
  const entries: [string, Buffer][] = [
    ["database.pglite.tar.gz", Buffer.from("the database")],
    ["files/media/1/a.wav", Buffer.alloc(1537, 3)],
    ["files/empty.txt", Buffer.alloc(0)],
    [longKey, Buffer.from("a long name")],
    ["manifest.json", Buffer.from('{"format":"yuelu-backup"}')],
  ];

  it("reads back what it wrote, long names included, and so does the system's tar", async () => {
    const file = path.join(dir, "a.tar");
    const tar = new TarWriter(createWriteStream(file));
    for (const [name, data] of entries.slice(0, 2)) await tar.add(name, data);
    const [streamed, streamedData] = entries[2] as [string, Buffer];
    await tar.addStream(streamed, streamedData.length, Readable.from([streamedData]));
    for (const [name, data] of entries.slice(3)) await tar.add(name, data);
    await tar.end();

    const listed = await listTar(file);
    expect(listed.map((e) => [e.name, e.size])).toEqual(entries.map(([n, d]) => [n, d.length]));
    for (const [i, e] of listed.entries())
      expect((await bytesOf(readEntry(file, e))).equals(entries[i]?.[1] as Buffer)).toBe(true);

    const { stdout } = await exec("tar", ["-tf", file]);
    expect(stdout.trim().split("\n")).toEqual(entries.map(([n]) => n));
    const out = path.join(dir, "x");
    await exec("mkdir", ["-p", out]);
    await exec("tar", ["-xf", file, "-C", out]);
    expect(await readFile(path.join(out, longKey))).toEqual(Buffer.from("a long name"));
    expect(await readFile(path.join(out, "files/media/1/a.wav"))).toEqual(Buffer.alloc(1537, 3));
  });

  it("refuses a stream that is not the size it was announced with", async () => {
    const tar = new TarWriter(createWriteStream(path.join(dir, "b.tar")));
    await expect(tar.addStream("f", 10, Readable.from([Buffer.alloc(4)]))).rejects.toThrow(/shrank/);
  });

  it("finds a damaged header and a cut archive", async () => {
    const file = path.join(dir, "c.tar");
    const tar = new TarWriter(createWriteStream(file));
    await tar.add("one", Buffer.from("1"));
    await tar.end();
    const bytes = await readFile(file);
    const damaged = Buffer.from(bytes);
    damaged[3] = (damaged[3] ?? 0) ^ 1;
    await writeFile(path.join(dir, "d.tar"), damaged);
    await expect(listTar(path.join(dir, "d.tar"))).rejects.toThrow(/bad header checksum/);
    await writeFile(path.join(dir, "e.tar"), bytes.subarray(0, 512 + 512));
    await expect(listTar(path.join(dir, "e.tar"))).rejects.toThrow(/truncated/);
  });
});

describe("BACKUP_CRON", () => {
  const at = (s: string) => new Date(s);

  it("finds the next matching minute, in the server's time zone", () => {
    expect(parseCron("0 3 * * *").next(at("2026-01-05T02:59:30"))).toEqual(at("2026-01-05T03:00:00"));
    expect(parseCron("0 3 * * *").next(at("2026-01-05T03:00:00"))).toEqual(at("2026-01-06T03:00:00"));
    expect(parseCron("*/15 * * * *").next(at("2026-01-05T10:07:00"))).toEqual(at("2026-01-05T10:15:00"));
    expect(parseCron("30 1-3/2 * * *").next(at("2026-01-05T01:31:00"))).toEqual(at("2026-01-05T03:30:00"));
    expect(parseCron("@daily").next(at("2026-12-31T23:59:00"))).toEqual(at("2027-01-01T00:00:00"));
    expect(parseCron("@monthly").next(at("2026-02-10T00:00:00"))).toEqual(at("2026-03-01T00:00:00"));
    // 2026-01-05 is a Monday; Sunday is 0 and 7
    expect(parseCron("0 4 * * 7").next(at("2026-01-05T00:00:00"))).toEqual(at("2026-01-11T04:00:00"));
    expect(parseCron("0 4 * * 0").next(at("2026-01-05T00:00:00"))).toEqual(at("2026-01-11T04:00:00"));
    // both day fields restricted: either one matches, as in cron (the 20th, or a Wednesday)
    expect(parseCron("0 0 20 * 3").next(at("2026-01-05T00:00:00"))).toEqual(at("2026-01-07T00:00:00"));
    expect(parseCron("0 0 29 2 *").next(at("2026-03-01T00:00:00"))).toEqual(at("2028-02-29T00:00:00"));
  });

  it("refuses what it cannot read, and so does the server's configuration", () => {
    for (const bad of ["* * * *", "60 * * * *", "0 24 * * *", "0 0 0 * *", "0 0 * 13 *", "a * * * *", "5-1 * * * *"]) {
      expect(() => parseCron(bad), bad).toThrow(/BACKUP_CRON/);
    }
    expect(() => loadConfig({ BACKUP_CRON: "every night" })).toThrow(ConfigError);
    expect(loadConfig({ BACKUP_CRON: "0 3 * * *" }).BACKUP_KEEP).toBe(7);
    expect(loadConfig({}).BACKUP_CRON).toBeUndefined();
  });
});

describe("BACKUP_KEEP", () => {
  it("names scheduled backups by their UTC minute and keeps the newest", async () => {
    expect(backupFileName(new Date("2026-11-26T03:00:00Z"))).toBe("yuelu-20261126-0300.tar");
    const backups = path.join(dir, "backups");
    await exec("mkdir", ["-p", backups]);
    const names = ["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26"].map((d) =>
      backupFileName(new Date(`${d}T03:00:00Z`)),
    );
    for (const n of names) await writeFile(path.join(backups, n), "x");
    await writeFile(path.join(backups, "my-own.tar"), "not ours");
    expect(await pruneBackups(backups, 2)).toEqual(names.slice(0, 2));
    const { stdout } = await exec("ls", [backups]);
    expect(stdout.trim().split("\n").sort()).toEqual([...names.slice(2), "my-own.tar"].sort());
  });
});
