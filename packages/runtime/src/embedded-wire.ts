import { createHash, timingSafeEqual } from "node:crypto";
import net from "node:net";
import type { PGlite } from "@electric-sql/pglite";

/**
 * The Postgres wire protocol in front of one in-process PGlite, so node-postgres clients (Prisma's
 * adapter, the hot-path pool, BullMQ's Postgres backend) use the embedded database exactly as they
 * use a server.
 *
 * PGlite is a single session, so connections must take turns. A turn is a whole protocol cycle —
 * a simple Query, or the extended Parse/Bind/Describe/Execute… up to Sync — and it lasts while a
 * transaction is open, so no other connection can slip between a statement's Parse and its Execute
 * or into someone else's transaction. (pglite-socket queues single messages, which interleaves
 * concurrent extended-protocol queries: "unnamed prepared statement does not exist".)
 *
 * LISTEN/NOTIFY: the one session hears every notification, so PGlite writes it into the stream of
 * whichever connection ran the NOTIFY. The connections that asked to LISTEN on that channel get a
 * copy here (BullMQ's Postgres backend waits for new jobs that way; without it, a worker would sleep
 * its whole drain delay before it sees a job).
 */

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;

/** A FIFO lock whose holder is a connection id. */
class Turns {
  holder: number | null = null;
  private waiting: { id: number; go: () => void }[] = [];

  async take(id: number): Promise<void> {
    if (this.holder === id) return;
    if (this.holder === null) {
      this.holder = id;
      return;
    }
    await new Promise<void>((go) => this.waiting.push({ id, go }));
  }

  give(id: number): void {
    if (this.holder !== id) return;
    const next = this.waiting.shift();
    this.holder = next ? next.id : null;
    next?.go();
  }

  forget(id: number): void {
    this.waiting = this.waiting.filter((w) => w.id !== id);
  }
}

interface Message {
  kind: "startup" | "ssl" | "cancel" | "protocol";
  type: string;
  bytes: Buffer;
}

export interface WireServer {
  port: number;
  /**
   * Runs `use` while no connection holds a turn — so between whole statements and outside every
   * client's transaction (the backup's snapshot: embedded-postgres.ts).
   */
  exclusive<T>(use: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The channels a LISTEN / UNLISTEN statement names (`*` for UNLISTEN *), from a Query or Parse message. */
export function listenCommands(m: { type: string; bytes: Buffer }): { listen: string[]; unlisten: string[] } {
  const out = { listen: [] as string[], unlisten: [] as string[] };
  if (m.type !== "Q" && m.type !== "P") return out;
  let text = m.bytes.subarray(5).toString("utf8");
  // Parse: statement name \0 query \0 …
  if (m.type === "P") text = text.slice(text.indexOf("\0") + 1);
  text = text.slice(0, text.indexOf("\0") >= 0 ? text.indexOf("\0") : undefined);
  if (!/listen/i.test(text)) return out;
  for (const match of text.matchAll(/\b(UN)?LISTEN\s+(\*|"((?:[^"]|"")+)"|[A-Za-z_][\w$]*)/gi)) {
    const channel = match[3] !== undefined ? match[3].replace(/""/g, '"') : (match[2] ?? "");
    // Unquoted identifiers fold to lower case, as in PostgreSQL.
    const name = match[3] !== undefined || channel === "*" ? channel : channel.toLowerCase();
    (match[1] ? out.unlisten : out.listen).push(name);
  }
  return out;
}

/** NotificationResponse ('A') messages in a stream of backend messages, with their channels. */
export function notificationsIn(stream: Buffer): { channel: string; bytes: Buffer }[] {
  const out: { channel: string; bytes: Buffer }[] = [];
  for (let at = 0; at + 5 <= stream.length; ) {
    const end = at + 1 + stream.readInt32BE(at + 1);
    if (end > stream.length) break;
    if (stream[at] === 0x41) {
      const nameStart = at + 9; // type, length, sender pid
      const nameEnd = stream.indexOf(0, nameStart);
      if (nameEnd > 0 && nameEnd < end) {
        out.push({ channel: stream.subarray(nameStart, nameEnd).toString("utf8"), bytes: stream.subarray(at, end) });
      }
    }
    at = end;
  }
  return out;
}

/** AuthenticationCleartextPassword: the client answers with a PasswordMessage ('p'). */
const ASK_PASSWORD = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]);

/** A FATAL ErrorResponse with a SQLSTATE (what PostgreSQL answers a wrong password with: 28P01). */
function fatal(code: string, message: string): Buffer {
  const fields = Buffer.concat([Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0`, "utf8"), Buffer.from([0])]);
  const head = Buffer.alloc(5);
  head[0] = 0x45;
  head.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([head, fields]);
}

function samePassword(given: Buffer, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Serves `db` on `host:port`. With `password`, every connection must give it (cleartext password
 * authentication, as PostgreSQL's `password` method: on loopback only) before its startup reaches
 * PGlite — so no other user of the machine can open the install's database through its port.
 */
export async function serveWire(
  db: PGlite,
  options: { host?: string; port?: number; password?: string } = {},
): Promise<WireServer> {
  const { host = "127.0.0.1", port = 0, password } = options;
  const turns = new Turns();
  const sockets = new Set<net.Socket>();
  /** connection id → its socket and the channels it LISTENs on */
  const listeners = new Map<number, { socket: net.Socket; channels: Set<string> }>();
  let nextId = 1;

  const server = net.createServer((socket) => {
    const id = nextId++;
    sockets.add(socket);
    socket.setNoDelay(true);
    let buffer = Buffer.alloc(0);
    let started = false;
    /** the startup message held back until the client has given the password */
    let pendingStartup: Message | null = null;
    let chain = Promise.resolve();

    const next = (): Message | null => {
      if (!started) {
        if (buffer.length < 8) return null;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) return null;
        const bytes = buffer.subarray(0, length);
        buffer = buffer.subarray(length);
        const code = bytes.readInt32BE(4);
        const kind =
          code === SSL_REQUEST || code === GSSENC_REQUEST ? "ssl" : code === CANCEL_REQUEST ? "cancel" : "startup";
        return { kind, type: "", bytes };
      }
      if (buffer.length < 5) return null;
      const length = 1 + buffer.readInt32BE(1);
      if (buffer.length < length) return null;
      const bytes = buffer.subarray(0, length);
      buffer = buffer.subarray(length);
      return { kind: "protocol", type: String.fromCharCode(bytes[0] ?? 0), bytes };
    };

    const handle = async (message: Message) => {
      let m = message;
      if (m.kind === "ssl") {
        socket.write("N"); // no TLS on loopback; the client continues in plain text
        return;
      }
      if (m.kind === "cancel" || (m.kind === "protocol" && m.type === "X")) {
        socket.end();
        return;
      }
      if (m.kind === "startup" && password !== undefined) {
        pendingStartup = m;
        started = true; // the next message is a typed one: the password
        socket.write(ASK_PASSWORD);
        return;
      }
      if (pendingStartup) {
        const given = m.type === "p" ? m.bytes.subarray(5, m.bytes.indexOf(0, 5)) : Buffer.alloc(0);
        if (password === undefined || !samePassword(given, password)) {
          socket.end(fatal("28P01", "password authentication failed"));
          return;
        }
        m = pendingStartup;
        pendingStartup = null;
      }
      await turns.take(id);
      // Keep a copy of the answer only while some other connection listens (to find notifications).
      const copy: Uint8Array[] | null = listeners.size > (listeners.has(id) ? 1 : 0) ? [] : null;
      await db.runExclusive(() =>
        db.execProtocolRawStream(new Uint8Array(m.bytes), {
          onRawData: (data) => {
            if (!data.length) return;
            copy?.push(Uint8Array.from(data));
            // `data` is a view into PGlite's heap, reused for the next answer; a socket that is
            // full queues what it is given, so it must be given a copy.
            if (socket.writable) socket.write(Buffer.from(data));
          },
        }),
      );
      if (m.kind === "protocol") track(m);
      if (copy?.length) forward(Buffer.concat(copy));
      if (m.kind === "startup") started = true;
      const cycleEnds = m.kind === "startup" || m.type === "S" || m.type === "Q";
      if (cycleEnds && !db.isInTransaction()) turns.give(id);
    };

    const track = (m: Message) => {
      const { listen, unlisten } = listenCommands(m);
      if (!listen.length && !unlisten.length) return;
      const entry = listeners.get(id) ?? { socket, channels: new Set<string>() };
      for (const c of listen) entry.channels.add(c);
      for (const c of unlisten) c === "*" ? entry.channels.clear() : entry.channels.delete(c);
      if (entry.channels.size) listeners.set(id, entry);
      else listeners.delete(id);
    };

    /** Copies the notifications of this connection's answer to the other connections listening. */
    const forward = (answer: Buffer) => {
      for (const n of notificationsIn(answer)) {
        for (const [other, entry] of listeners) {
          if (other !== id && entry.channels.has(n.channel) && entry.socket.writable) entry.socket.write(n.bytes);
        }
      }
    };

    const drain = async () => {
      for (let m = next(); m; m = next()) await handle(m);
    };

    socket.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      chain = chain.then(drain).catch(() => {
        socket.destroy();
      });
    });
    socket.on("error", () => socket.destroy());
    socket.on("close", () => {
      sockets.delete(socket);
      listeners.delete(id);
      // Leave the queue now: a connection still waiting for its turn must never be handed one.
      turns.forget(id);
      chain = chain.then(async () => {
        if (turns.holder !== id) return;
        // A client that vanished mid-transaction must not keep the database.
        if (db.isInTransaction()) await db.exec("ROLLBACK").catch(() => {});
        turns.give(id);
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as net.AddressInfo;
  let exclusiveIds = 0;
  return {
    port: address.port,
    async exclusive(use) {
      // Negative ids never collide with connections' (1, 2, …).
      const id = -++exclusiveIds;
      await turns.take(id);
      try {
        return await use();
      } finally {
        turns.give(id);
      }
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
