/**
 * Which migrations cannot run while other nodes serve (issue 32): they rewrite a table under an
 * exclusive lock (requests wait until it is done) or remove what the running version still reads
 * (its queries fail until it is replaced). Such a migration needs the nodes stopped first; the
 * migration runner says so before it starts (migrate.ts).
 *
 * A migration folder can say it outright with a line `-- yuelu: offline <why>`; the rest is found in
 * the SQL. `-- yuelu: online` on a line of its own overrides the detection (the author checked it:
 * a tiny table, a column nothing reads any more).
 */

/** The reasons a migration's SQL cannot run online; empty when it can. */
export function offlineReasons(sql: string): string[] {
  const marker = /^\s*--\s*yuelu:\s*(offline|online)\b[ \t]*(.*)$/im.exec(sql);
  if (marker?.[1]?.toLowerCase() === "online") return [];
  const reasons: string[] = [];
  if (marker) reasons.push(`marked offline${marker[2]?.trim() ? `: ${marker[2].trim()}` : ""}`);
  const created = new Set(
    [...sql.matchAll(/CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?("?[\w.]+"?)/gi)].map((m) => name(m[1])),
  );
  for (const statement of statements(sql)) {
    const alter = /^ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?("?[\w.]+"?)\s+([\s\S]*)$/i.exec(statement);
    if (alter) {
      const table = name(alter[1]);
      // a table made by this very migration has no rows and nobody reading it yet
      if (created.has(table)) continue;
      for (const action of splitTopLevel(alter[2] ?? "")) {
        const why = alterReason(action);
        if (why) reasons.push(`${table}: ${why}`);
      }
      continue;
    }
    const drop = /^DROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?("?[\w.]+"?)/i.exec(statement);
    if (drop) reasons.push(`${name(drop[1])}: the table is dropped (the running version still reads it)`);
  }
  return [...new Set(reasons)];
}

function alterReason(action: string): string | undefined {
  const a = action.trim();
  if (/^DROP\s+(COLUMN\s+)?(IF\s+EXISTS\s+)?"?\w+"?/i.test(a) && !/^DROP\s+(CONSTRAINT|DEFAULT)\b/i.test(a)) {
    return `column dropped (${a.replace(/\s+/g, " ")}): the running version still reads it`;
  }
  if (/^RENAME\b/i.test(a)) return `rename (${a.replace(/\s+/g, " ")}): the running version still uses the old name`;
  if (/^ALTER\s+(COLUMN\s+)?"?\w+"?\s+(SET\s+DATA\s+)?TYPE\b/i.test(a)) {
    return `column type changed (${a.replace(/\s+/g, " ")}): the table is rewritten under an exclusive lock`;
  }
  if (/^ALTER\s+(COLUMN\s+)?"?\w+"?\s+SET\s+NOT\s+NULL\b/i.test(a)) {
    return `NOT NULL added (${a.replace(/\s+/g, " ")}): every row is checked under an exclusive lock`;
  }
  if (/^ADD\s+(COLUMN\s+)?/i.test(a) && /\bNOT\s+NULL\b/i.test(a) && !/\bDEFAULT\b/i.test(a)) {
    return `NOT NULL column without a default (${a.replace(/\s+/g, " ")}): fails or blocks on a table with rows`;
  }
  return undefined;
}

/** The SQL's statements, comments removed (string literals are not parsed: migrations rarely hold `;` in them). */
function statements(sql: string): string[] {
  return sql
    .replace(/--.*$/gm, "")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .split(";")
    .map((s) => s.trim().replace(/\s+/g, " "))
    .filter(Boolean);
}

/** `a, b (x, y), c` → the actions of one ALTER TABLE, split at commas outside parentheses. */
function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of text) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      out.push(current);
      current = "";
    } else current += ch;
  }
  if (current.trim()) out.push(current);
  return out;
}

function name(quoted: string | undefined): string {
  return (quoted ?? "").replace(/"/g, "");
}
