/** The db:* scripts work on an external PostgreSQL; the embedded one migrates and seeds itself at start. */
export function requireDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error(
      "DATABASE_URL is not set. `npm start` migrates and seeds its embedded database by itself;\n" +
        "set DATABASE_URL=postgresql://user@host:5432/db to migrate an external PostgreSQL.",
    );
    process.exit(2);
  }
  return url;
}
