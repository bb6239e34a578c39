import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The house drawn from the code: which part may import which (docs/architecture.md). Apps never
 * import each other (the launcher composes them); packages never import apps; the domain sits below
 * both apps; the web app gets constants from the zod-free entry and types only from the rest; and
 * the business rules' writes live in packages/domain alone.
 */

const root = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(root, dir))) {
    const rel = path.join(dir, name);
    if (name === "node_modules" || name === "generated" || name === "dist") continue;
    if (statSync(path.join(root, rel)).isDirectory()) out.push(...sources(rel));
    else if (/\.(ts|tsx|mts)$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(rel);
  }
  return out;
}

interface Import {
  file: string;
  specifier: string;
  typeOnly: boolean;
}

function importsOf(dir: string): Import[] {
  return sources(dir).flatMap((file) => {
    const text = readFileSync(path.join(root, file), "utf8");
    const found: Import[] = [];
    for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?from\s+["']([^"']+)["']/gms)) {
      found.push({ file, specifier: m[3]!, typeOnly: Boolean(m[2]) });
    }
    for (const m of text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)) {
      found.push({ file, specifier: m[1]!, typeOnly: false });
    }
    return found;
  });
}

function violations(dir: string, forbidden: RegExp): string[] {
  return importsOf(dir)
    .filter((i) => forbidden.test(i.specifier) || forbidden.test(path.join(path.dirname(i.file), i.specifier)))
    .map((i) => `${i.file} imports ${i.specifier}`);
}

describe("who may import whom", () => {
  it("the API never imports the worker (nor the launcher), and does not depend on it", () => {
    expect(violations("apps/api/src", /@yuelu\/(worker|launcher)|apps\/worker/)).toEqual([]);
    const pkg = JSON.parse(readFileSync(path.join(root, "apps/api/package.json"), "utf8"));
    expect(Object.keys(pkg.dependencies)).not.toContain("@yuelu/worker");
    expect(Object.keys(pkg.dependencies)).not.toContain("nodejs-whisper");
    expect(Object.keys(pkg.dependencies)).not.toContain("onnxruntime-node");
  });

  it("the worker never imports the API", () => {
    expect(violations("apps/worker/src", /@yuelu\/(api|launcher|web)|apps\/api/)).toEqual([]);
  });

  it("packages never import apps; the domain sits below both apps", () => {
    for (const dir of ["packages/contracts/src", "packages/runtime/src", "packages/domain/src", "prisma/src"]) {
      expect(violations(dir, /@yuelu\/(api|worker|web|launcher)|apps\//)).toEqual([]);
    }
    expect(violations("packages/runtime/src", /@yuelu\/domain/)).toEqual([]);
    expect(violations("prisma/src", /@yuelu\/(domain|runtime)/)).toEqual([]);
    // rules are plain functions: no web framework or queue in the domain
    expect(violations("packages/domain/src", /^(fastify|bullmq|@fastify\/)/)).toEqual([]);
    // the contracts stand alone: zod and themselves
    const contracts = importsOf("packages/contracts/src").filter((i) => !i.specifier.startsWith("."));
    expect(contracts.map((i) => i.specifier).filter((s) => s !== "zod")).toEqual([]);
  });

  it("the zod-free constants entry really is zod-free", () => {
    const entry = [
      "constants.ts",
      "codes.ts",
      "engines.ts",
      "limits.ts",
      "live-constants.ts",
      "server-messages.ts",
      "records-constants.ts",
      "share-constants.ts",
      "statuses.ts",
      "text.ts",
      "syllables.ts",
      "tts-constants.ts",
      "validation.ts",
      "voice-constants.ts",
      "webhook-constants.ts",
      "words.ts",
    ];
    const imports = importsOf("packages/contracts/src").filter((i) => entry.includes(path.basename(i.file)));
    expect(
      imports.filter(
        (i) =>
          i.specifier === "zod" ||
          (!i.typeOnly && i.specifier.startsWith("./") && !entry.includes(path.basename(i.specifier))),
      ),
    ).toEqual([]);
  });

  it("the web app takes values only from @yuelu/contracts/constants, types from the rest, and never zod", () => {
    const web = importsOf("apps/web/src");
    expect(web.filter((i) => i.specifier === "zod").map((i) => i.file)).toEqual([]);
    expect(web.filter((i) => i.specifier === "@yuelu/contracts" && !i.typeOnly).map((i) => i.file)).toEqual([]);
  });
});

describe("business rules live in packages/domain", () => {
  // Writes that move money, time, quotas, task states, live-caption sessions (their charge and their
  // count), webhook deliveries, or change a user's records, transcripts (every write announced: search,
  // webhooks), orders, notes and voices: nowhere but the domain.
  const RULE_WRITES =
    /\.(transcriptionTask|timeCard|timeCardDeduction|beanLedger|quotaDay|welcomeGift|ttsTask|ttsQuotaDay|liveSession|webhookEndpoint|webhookDelivery|webhookAttempt|audioRecord|transcript|order|noteTask|userVoice|voiceWork|storageHold)\.(create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany)\(|(INSERT INTO|UPDATE|DELETE FROM) "?(bean_ledger|quota_days|time_cards|tts_quota_days|tts_tasks|live_sessions|transcription_tasks|audio_records|transcripts|orders|note_tasks|user_voices|voice_works|storage_holds)\b/;

  it("no app writes them itself", () => {
    const offenders = [...sources("apps/api/src"), ...sources("apps/worker/src"), ...sources("launcher")].filter((f) =>
      RULE_WRITES.test(readFileSync(path.join(root, f), "utf8")),
    );
    expect(offenders).toEqual([]);
  });

  it("routes never publish cache invalidations: the domain does, after its commits", () => {
    const offenders = sources("apps/api/src/modules").filter((f) =>
      /invalidate\.user|events\.publish\(\{ type: "user\.changed"/.test(readFileSync(path.join(root, f), "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});
