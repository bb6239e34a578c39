/**
 * Offline access to Prisma's schema engine for dev tooling.
 *
 * `prisma migrate dev/diff` need the native schema-engine binary, which cannot be downloaded offline.
 * The same engine ships as WebAssembly (`@prisma/schema-engine-wasm`); instead of opening database
 * URLs itself it talks to Postgres through a driver adapter (`@prisma/adapter-pg`). This module loads
 * the engine and gives it an adapter factory that only ever connects to throw-away databases created
 * (and always dropped) here, so the engine is never connected to a real database.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { PrismaPg } from "@prisma/adapter-pg";
import {
  bindMigrationAwareSqlAdapterFactory,
  ColumnTypeEnum,
  type ConnectionInfo,
  DriverAdapterError,
  type IsolationLevel,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
  type SqlResultSet,
  type Transaction,
} from "@prisma/driver-adapter-utils";
import * as engineBindings from "@prisma/schema-engine-wasm/schema_engine_bg";
import pg from "pg";

export type SchemaEngine = engineBindings.SchemaEngine;

let bindingsReady: Promise<void> | undefined;

/** The part of the WebAssembly global used here; the repo compiles without DOM types, which declare it. */
interface WebAssemblyApi {
  instantiate(bytes: Uint8Array, imports: Record<string, object>): Promise<{ instance: { exports: object } }>;
}
const { WebAssembly } = globalThis as unknown as { WebAssembly: WebAssemblyApi };

/**
 * The package's entry point does `import * as wasm from "./schema_engine_bg.wasm"`, which Node 20 only
 * understands with --experimental-wasm-modules. Do what that import would do by hand: instantiate the
 * module with the JS glue as its import object, hand the exports to the glue, run the start function.
 */
function loadEngineBindings(): Promise<void> {
  bindingsReady ??= (async () => {
    const glueUrl = import.meta.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const wasmBytes = await readFile(new URL("schema_engine_bg.wasm", glueUrl));
    const { instance } = await WebAssembly.instantiate(wasmBytes, { "./schema_engine_bg.js": engineBindings });
    engineBindings.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start(): void }).__wbindgen_start();
  })();
  return bindingsReady;
}

/** OIDs from pg_type. */
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

/** For a pg result's `rows` array: the indices of its `"char"` columns (see {@link CharColumnsClient}). */
const charColumnsOfRows = new WeakMap<object, number[]>();

function relabelCharColumns<T>(result: T): T {
  for (const part of Array.isArray(result) ? result : [result]) {
    const { fields, rows } = (part ?? {}) as { fields?: pg.FieldDef[]; rows?: unknown[] };
    if (!Array.isArray(fields) || !Array.isArray(rows)) continue;
    const charColumns: number[] = [];
    fields.forEach((field, index) => {
      if (field.dataTypeID !== PG_CHAR_OID) return;
      field.dataTypeID = PG_TEXT_OID;
      charColumns.push(index);
    });
    if (charColumns.length > 0) charColumnsOfRows.set(rows, charColumns);
  }
  return result;
}

/**
 * adapter-pg gap #1: the engine's catalog queries return Postgres' internal one-byte `"char"` type
 * (OID 18; e.g. `pg_constraint.contype`), which adapter-pg rejects ("Unsupported column type char")
 * although it maps `"char"[]` to CharacterArray. The engine reads such columns as Character (reading
 * them as Text makes it panic on CHECK constraints), so the fix takes two steps:
 * 1. this pg client, which every adapter query passes through before adapter-pg inspects `fields` in
 *    its private `performIO`, relabels `"char"` columns as `text` (pg already decodes the value as a
 *    one-character string) and remembers their indices against the result's `rows` array;
 * 2. {@link ThrowawayDbAdapter.queryRaw} gets that same `rows` array back from adapter-pg and turns
 *    those columns' type into Character.
 */
class CharColumnsClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: a pass-through for every overload of pg.Client#query
  override query(...args: any[]): any {
    const callback: unknown = args.at(-1);
    if (typeof callback === "function") {
      // Callback style, as used by pg.Pool#query.
      args[args.length - 1] = (error: Error | undefined, result: unknown) =>
        callback(error, error ? result : relabelCharColumns(result));
      return Reflect.apply(super.query, this, args);
    }
    // Promise style (checked-out clients, i.e. transactions), or a Submittable passed through as is.
    const returned: unknown = Reflect.apply(super.query, this, args);
    return returned instanceof Promise ? returned.then(relabelCharColumns) : returned;
  }
}

type PrismaPgAdapter = Awaited<ReturnType<PrismaPg["connect"]>>;

const POOL_END_TIMEOUT_MS = 3000;

/** Maps a pg error the way adapter-pg does, so the engine reports the Postgres error message and code. */
function toDriverAdapterError(error: unknown): unknown {
  if (!(error instanceof pg.DatabaseError) || error.code === undefined) return error;
  return new DriverAdapterError({
    kind: "postgres",
    code: error.code,
    severity: error.severity ?? "ERROR",
    message: error.message,
    detail: error.detail,
    column: error.column,
    hint: error.hint,
    originalCode: error.code,
    originalMessage: error.message,
  });
}

/**
 * An adapter-pg adapter on a throw-away database. `queryRaw` completes the `"char"` fix (see
 * {@link CharColumnsClient}); transactions are passed through untouched, as the engine runs its catalog
 * queries outside them.
 *
 * adapter-pg gap #2: its `executeScript` splits the script on every `;` and runs the pieces one by one,
 * which breaks any migration with a `;` inside a comment, string literal or function body. The engine
 * uses `executeScript` to apply migration files to the shadow database, so send the whole file in one
 * simple-protocol query instead; Postgres then runs it as one implicit transaction, which is also what
 * Prisma's native engine does with migration files.
 */
class ThrowawayDbAdapter implements SqlDriverAdapter {
  readonly provider = "postgres";
  readonly adapterName: string;
  #disposed: Promise<void> | undefined;

  constructor(
    private readonly inner: PrismaPgAdapter,
    private readonly dropDatabase: () => Promise<void>,
  ) {
    this.adapterName = inner.adapterName;
  }

  async queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    const resultSet = await this.inner.queryRaw(query);
    for (const index of charColumnsOfRows.get(resultSet.rows) ?? []) {
      resultSet.columnTypes[index] = ColumnTypeEnum.Character;
    }
    return resultSet;
  }

  executeRaw(query: SqlQuery): Promise<number> {
    return this.inner.executeRaw(query);
  }

  startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
    return this.inner.startTransaction(isolationLevel);
  }

  getConnectionInfo(): ConnectionInfo {
    return this.inner.getConnectionInfo();
  }

  async executeScript(script: string): Promise<void> {
    try {
      await this.inner.underlyingDriver().query(script);
    } catch (error) {
      throw toDriverAdapterError(error);
    }
  }

  /** Closes the pool, then drops the database. Idempotent: the engine and our cleanup may both call it. */
  dispose(): Promise<void> {
    this.#disposed ??= (async () => {
      // pool.end() waits for every checked-out client. Don't let one that is never released (a query
      // cut short by Ctrl-C, say) hang the tool; the drop below ends such connections (Postgres 13+).
      const poolEnded = this.inner.dispose().catch(() => {});
      await Promise.race([poolEnded, sleep(POOL_END_TIMEOUT_MS, undefined, { ref: false })]);
      await this.dropDatabase();
    })();
    return this.#disposed;
  }
}

/**
 * The adapter factory handed to the engine; owns the connection that creates and drops the databases.
 *
 * - `connect()` is the engine's "main" database. The diff used by our tools never changes it, but the
 *   engine connects at start-up anyway, so give it an empty throw-away database rather than a real one.
 * - `connectToShadowDb()` gets a fresh database per call (adapter-pg's own version connects to the main
 *   database when configured with a connection string, because pg lets the URL's database win).
 */
class ThrowawayDbFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = "postgres";
  readonly adapterName = "@prisma/adapter-pg";
  /** Databases created and not (yet) dropped. */
  readonly #created = new Set<string>();
  readonly #drops = new Map<string, Promise<void>>();
  readonly #adapters = new Set<ThrowawayDbAdapter>();
  readonly #opening = new Set<Promise<unknown>>();
  #closing: Promise<void> | undefined;

  private constructor(
    private readonly admin: pg.Client,
    private readonly serverUrl: string,
    private readonly dropSuffix: string,
  ) {}

  static async create(serverUrl: string): Promise<ThrowawayDbFactory> {
    const admin = await connectAdmin(serverUrl);
    try {
      const { rows } = await admin.query<{ server_version_num: string }>("SHOW server_version_num");
      // FORCE (Postgres 13+) also ends connections still open, e.g. after an interrupted query.
      const canForce = Number(rows[0]?.server_version_num) >= 130000;
      return new ThrowawayDbFactory(admin, serverUrl, canForce ? " WITH (FORCE)" : "");
    } catch (error) {
      await admin.end().catch(() => {});
      throw error;
    }
  }

  connect(): Promise<ThrowawayDbAdapter> {
    return this.#track(this.#open("main"));
  }

  connectToShadowDb(): Promise<ThrowawayDbAdapter> {
    return this.#track(this.#open("shadow"));
  }

  /**
   * Disposes every adapter (closing its pool, then dropping its database), drops whatever else was
   * created, and closes the admin connection. Idempotent; later `connect*()` calls are refused.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await Promise.allSettled(this.#opening); // a CREATE DATABASE in flight must not escape the drops
      await Promise.allSettled([...this.#adapters].map((adapter) => adapter.dispose()));
      await Promise.allSettled([...this.#created].map((name) => this.#drop(name)));
      await this.admin.end().catch(() => {});
    })();
    return this.#closing;
  }

  #track<T>(opening: Promise<T>): Promise<T> {
    this.#opening.add(opening);
    const forget = () => this.#opening.delete(opening);
    opening.then(forget, forget);
    return opening;
  }

  async #open(purpose: string): Promise<ThrowawayDbAdapter> {
    if (this.#closing) throw new Error("the throw-away databases are being dropped");
    const name = `prisma_make_migration_${purpose}_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    this.#created.add(name);
    await this.admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);

    const url = new URL(this.serverUrl);
    url.pathname = `/${name}`;
    const inner = await new PrismaPg({ connectionString: url.href, Client: CharColumnsClient }).connect();
    const adapter = new ThrowawayDbAdapter(inner, () => this.#drop(name));
    this.#adapters.add(adapter);
    return adapter;
  }

  /** Drops a database once, however many times it is asked to (the engine and close() both may). */
  #drop(name: string): Promise<void> {
    let dropping = this.#drops.get(name);
    if (!dropping) {
      dropping = this.admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)}${this.dropSuffix}`).then(
        () => void this.#created.delete(name),
        (error: unknown) => console.error(`warning: could not drop throw-away database "${name}": ${String(error)}`),
      );
      this.#drops.set(name, dropping);
    }
    return dropping;
  }
}

/** Connects to the server's administrative database: the URL's own database, else `postgres`. */
async function connectAdmin(serverUrl: string): Promise<pg.Client> {
  const connect = async (connectionString: string) => {
    const client = new pg.Client({ connectionString });
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
  };
  try {
    return await connect(serverUrl);
  } catch (error) {
    // 3D000 = invalid_catalog_name: the URL names an application database not created yet.
    if (!(error instanceof pg.DatabaseError) || error.code !== "3D000") throw error;
    const fallback = new URL(serverUrl);
    fallback.pathname = "/postgres";
    return connect(fallback.href);
  }
}

/** Forwards the engine's WARN/ERROR log lines (JSON strings) to stderr; INFO and below are noise here. */
function logEngineEvent(line: string): void {
  try {
    const event = JSON.parse(line) as { level?: string; fields?: { message?: string } };
    if (event.level === "WARN" || event.level === "ERROR") {
      console.error(`schema-engine ${event.level}: ${event.fields?.message ?? line}`);
    }
  } catch {
    console.error(`schema-engine: ${line}`);
  }
}

export class SchemaEnginePanic extends Error {
  override readonly name = "SchemaEnginePanic";
  readonly code = "SCHEMA_ENGINE_PANIC";

  constructor(message: string) {
    super(`the schema engine crashed (${message})`);
  }
}

/**
 * A Rust panic in the engine first hands its message to `PRISMA_WASM_PANIC_REGISTRY.set_message()`, a
 * global the wasm glue expects the host to define, then traps. The trap escapes as an uncaught exception
 * from a microtask, and the engine's pending promise never settles. Turn both into the rejection of
 * `panicked` (to race the engine's promises against) so that the caller's clean-up still runs.
 */
function watchForPanics(): { panicked: Promise<never>; stop(): void } {
  let fail: (error: unknown) => void = () => {};
  const panicked = new Promise<never>((_, reject) => {
    fail = reject;
  });
  panicked.catch(() => {}); // observed through Promise.race only; never an unhandled rejection
  (globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown }).PRISMA_WASM_PANIC_REGISTRY = {
    set_message: (message: string) => fail(new SchemaEnginePanic(message)),
  };
  const onUncaught = (error: unknown) => fail(error); // a no-op once set_message has failed it
  process.on("uncaughtException", onUncaught);
  return { panicked, stop: () => process.off("uncaughtException", onUncaught) };
}

/**
 * Runs `fn` with a schema engine whose databases are throw-away databases on the Postgres server at
 * `serverUrl` (the login there needs CREATEDB). Every database created is dropped before this returns
 * or throws, and on SIGINT/SIGTERM.
 */
export async function withSchemaEngine<T>(serverUrl: string, fn: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  await loadEngineBindings();
  const factory = await ThrowawayDbFactory.create(serverUrl);
  // Best effort: tsx relays a signal to its child process and SIGKILLs the child if it does not
  // acknowledge within ~60 ms, which can happen while the engine computes. `node --import tsx` has no relay.
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: dropping throw-away databases…`);
    void factory.close().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  const { panicked, stop } = watchForPanics();
  let engine: SchemaEngine | undefined;
  try {
    const adapterFactory = bindMigrationAwareSqlAdapterFactory(factory);
    engine = await Promise.race([
      engineBindings.SchemaEngine.new({ datamodels: undefined }, logEngineEvent, adapterFactory),
      panicked,
    ]);
    return await Promise.race([fn(engine), panicked]);
  } finally {
    stop();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    try {
      engine?.free();
    } catch {
      // Freeing an engine that panicked can trap again; the process is about to end anyway.
    }
    await factory.close();
  }
}
