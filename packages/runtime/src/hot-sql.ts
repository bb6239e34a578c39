import pg from "pg";

/**
 * Reads on the hot path (the session, user info) as prepared statements through node-postgres:
 * several times cheaper than an ORM round trip (bench/README.md). Prisma does everything else.
 *
 * On the embedded PGlite every socket connection shares one database session, so named
 * statements from two clients would collide ("prepared statement already exists"): there the
 * statements stay unnamed.
 */
export class HotSql {
  private readonly pool: pg.Pool;

  constructor(
    url: string,
    private readonly embedded: boolean,
  ) {
    this.pool = new pg.Pool({ connectionString: url, max: embedded ? 2 : 20 });
    // An idle client can fail (the server restarts, the database is dropped); without a listener the
    // pool's 'error' event would crash the process. The pool replaces the client on the next query.
    this.pool.on("error", () => {});
  }

  async query<Row extends pg.QueryResultRow>(name: string, text: string, values: unknown[]): Promise<Row[]> {
    const config = this.embedded ? { text, values } : { name, text, values };
    return (await this.pool.query<Row>(config)).rows;
  }

  /**
   * A statement run once in a while (at start, by a timer): never prepared under a name — another
   * process on the embedded database (the launcher's worker, which reaches it by URL and so names its
   * statements) shares its one session, where a second PREPARE of a name fails.
   */
  async once<Row extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<Row[]> {
    return (await this.pool.query<Row>({ text, values })).rows;
  }

  /** A fire-and-forget write that must never fail the request (e.g. touching lastSeenAt). */
  exec(text: string, values: unknown[]): void {
    this.pool.query(text, values).catch(() => {});
  }

  async end(): Promise<void> {
    await this.pool.end();
  }
}
