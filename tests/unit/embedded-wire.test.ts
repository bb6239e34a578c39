import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  listenCommands,
  notificationsIn,
  serveWire,
  type WireServer,
} from "../../packages/runtime/src/embedded-wire.ts";

/**
 * The embedded database's wire server: PGlite is one session, so a NOTIFY lands in the stream of the
 * connection that sent it; the server must copy it to the connections that LISTEN (BullMQ's Postgres
 * backend wakes its workers that way).
 */
let db: PGlite;
let wire: WireServer;
const clients: pg.Client[] = [];

async function connect(): Promise<pg.Client> {
  const c = new pg.Client({ host: "127.0.0.1", port: wire.port, user: "postgres", database: "postgres" });
  await c.connect();
  clients.push(c);
  return c;
}

function heard(client: pg.Client): { channel: string; payload?: string }[] {
  const got: { channel: string; payload?: string }[] = [];
  client.on("notification", (n) => got.push({ channel: n.channel, payload: n.payload }));
  return got;
}

const settle = () => new Promise((r) => setTimeout(r, 100));

beforeAll(async () => {
  db = await PGlite.create();
  wire = await serveWire(db);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.end().catch(() => {})));
  await wire.close();
  await db.close();
});

describe("embedded wire server: LISTEN/NOTIFY between connections", () => {
  it("delivers a NOTIFY (and pg_notify inside a transaction, at commit) to the listening connection", async () => {
    const listener = await connect();
    const sender = await connect();
    const got = heard(listener);
    await listener.query("LISTEN bullmq_jobs");
    await sender.query("NOTIFY bullmq_jobs, 'q1'");
    await sender.query("BEGIN");
    await sender.query("SELECT pg_notify('bullmq_jobs', $1)", ["q2"]);
    await settle();
    expect(got).toEqual([{ channel: "bullmq_jobs", payload: "q1" }]);
    await sender.query("COMMIT");
    await settle();
    expect(got).toEqual([
      { channel: "bullmq_jobs", payload: "q1" },
      { channel: "bullmq_jobs", payload: "q2" },
    ]);
  });

  it("delivers only on the channels listened to, and stops after UNLISTEN", async () => {
    const listener = await connect();
    const sender = await connect();
    const got = heard(listener);
    await listener.query('LISTEN "Mixed Case"');
    await sender.query("SELECT pg_notify('other', 'x')");
    await sender.query(`NOTIFY "Mixed Case", 'y'`);
    await settle();
    expect(got).toEqual([{ channel: "Mixed Case", payload: "y" }]);
    await listener.query("UNLISTEN *");
    await sender.query(`NOTIFY "Mixed Case", 'z'`);
    await settle();
    expect(got).toHaveLength(1);
  });

  it("keeps the connections' queries intact while notifications flow", async () => {
    const listener = await connect();
    const senders = new pg.Pool({ host: "127.0.0.1", port: wire.port, user: "postgres", database: "postgres", max: 4 });
    const got = heard(listener);
    await listener.query("LISTEN busy");
    const listenerQueries = (async () => {
      for (let i = 0; i < 20; i++) {
        const r = await listener.query("SELECT $1::int + 1 AS n", [i]);
        expect(r.rows[0].n).toBe(i + 1);
      }
    })();
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => senders.query("SELECT pg_notify('busy', $1)", [String(i)])),
      listenerQueries,
    ]);
    await senders.end();
    await settle();
    expect(got.map((n) => Number(n.payload)).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});

describe("embedded wire server: big answers", () => {
  // PGlite hands each chunk of an answer over as a view into its WebAssembly heap, which it reuses
  // for the next chunk. A big answer fills the socket, so Node queues chunks to send later: unless
  // they are copies, the client receives overwritten bytes and waits forever (a 5-hour transcript,
  // several MB in one row, hung on its second read).
  it("returns a multi-megabyte row intact to a slow reader while others query", async () => {
    const writer = await connect();
    await writer.query("CREATE TABLE big (id int PRIMARY KEY, body text)");
    const body = (c: string) => Array.from({ length: 400_000 }, (_, i) => `${c}${i}，`).join("");
    await writer.query("INSERT INTO big VALUES (1, $1), (2, $2)", [body("段落"), body("章节")]);
    const slow = await connect();
    // The slow reader stops reading, so its answer waits in the server's socket queue while another
    // connection's answers pass through PGlite's heap.
    const stream = (slow as unknown as { connection: { stream: NodeJS.ReadableStream } }).connection.stream;
    stream.pause();
    const first = slow.query("SELECT body FROM big WHERE id = 1");
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < 3; i++) await writer.query("SELECT body FROM big WHERE id = 2");
    stream.resume();
    expect((await first).rows[0].body === body("段落")).toBe(true);
    expect((await slow.query("SELECT body FROM big WHERE id = 2")).rows[0].body === body("章节")).toBe(true);
  }, 60_000);
});

describe("embedded wire server: message parsing", () => {
  /** A protocol message: type byte, length, body. */
  const message = (type: string, body: Buffer) => {
    const head = Buffer.alloc(5);
    head.write(type, 0);
    head.writeInt32BE(4 + body.length, 1);
    return Buffer.concat([head, body]);
  };
  const query = (sql: string) => ({ type: "Q", bytes: message("Q", Buffer.from(`${sql}\0`)) });
  it("reads the channels of LISTEN and UNLISTEN, folding unquoted names", () => {
    expect(listenCommands(query('LISTEN Jobs; listen "A""b"; UNLISTEN x; unlisten *'))).toEqual({
      listen: ["jobs", 'A"b'],
      unlisten: ["x", "*"],
    });
    expect(listenCommands(query("SELECT 1"))).toEqual({ listen: [], unlisten: [] });
  });
  it("finds notification messages among other backend messages", () => {
    const pid = Buffer.alloc(4);
    const notification = message("A", Buffer.concat([pid, Buffer.from("chan\0payload\0")]));
    const stream = Buffer.concat([
      message("C", Buffer.from("SELECT 1\0")),
      notification,
      message("Z", Buffer.from("I")),
    ]);
    expect(notificationsIn(stream)).toEqual([{ channel: "chan", bytes: notification }]);
  });
});
