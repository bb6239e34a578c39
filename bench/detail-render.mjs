// /detail with a 5-hour transcript, against the real product (scripts/start.mjs and the built web app)
// in real Chromium (playwright-core, /usr/bin/chromium or CHROMIUM_PATH):
//  (a) get_text's bytes on the wire for the transcript, as sent uncompressed and with each encoding a
//      browser asks for (the API compresses answers when the client accepts it);
//  (b) the first paint of the segment rows, ms after navigation: a first visit, then warm visits;
//  (c) frame times over a full scroll from the first segment to the last (p50/p95/max), with the
//      frames that showed a gap and the most rows the DOM held;
//  (d) the time from a keystroke to the next frame in the search box and in a line being edited.
// The transcript (3 600 segments over 5 hours, word timings included, as the worker stores them) is
// written straight into the database. Needs `npm run build` first. Uses DATABASE_URL/REDIS_URL when
// set, else the embedded database.
// Usage: node bench/detail-render.mjs [--segments 3600] [--hours 5] [--visits 5] [--port 8096]
import http from "node:http";
import { parseArgs } from "node:util";
import pg from "pg";
import { register } from "tsx/esm/api";
import { signIn, startYuelu } from "./lib/yuelu-server.mjs";

register();
const { bigTranscript, silentWav, storeTranscript } = await import("../tests/e2e/helpers/big-transcript.ts");
const { launchBrowser, DESKTOP } = await import("../tests/e2e/helpers/browser.ts");
const metrics = await import("../tests/e2e/helpers/detail-metrics.ts");

const { values } = parseArgs({
  options: {
    segments: { type: "string", default: "3600" },
    hours: { type: "string", default: "5" },
    visits: { type: "string", default: "5" },
    port: { type: "string", default: "8096" },
  },
});
const count = Number(values.segments);
const hours = Number(values.hours);
const visits = Number(values.visits);

/** GET `url` with `headers` over plain node:http (no decoding): the body's bytes as they came, and its encoding. */
function wireBytes(url, headers) {
  return new Promise((resolve, reject) => {
    const req = http
      .get(url, { headers, agent: false }, (res) => {
        let bytes = 0;
        res.on("data", (chunk) => (bytes += chunk.length));
        res.on("end", () => resolve({ bytes, encoding: res.headers["content-encoding"] ?? "identity" }));
        res.on("error", reject);
      })
      .on("error", reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer from ${url} within 30 s`)));
  });
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const ms = (n) => `${n.toFixed(1)} ms`;
const line = (s) => `p50 ${ms(s.p50)}, p95 ${ms(s.p95)}, max ${ms(s.max)} (${s.n})`;

const server = await startYuelu({ name: "detail", port: Number(values.port), env: { LOG_LEVEL: "warn" } });
let browser;
try {
  const { cookie, api } = await signIn(server.base, "13900000096");
  // no first-visit dialogs over the page: survey answered, gifts seen, today's check-in done
  await api("POST", "/api/v1/update_info_collect", { identity: "Skip", channel: "Skip" });
  await api("POST", "/api/v1/user/update_info", { giftsShown: ["new_user", "invite", "black_card"] });
  await api("POST", "/api/v1/store/sign");
  const form = new FormData();
  form.append("file", new Blob([silentWav(1)], { type: "audio/wav" }), "bench-5h.wav");
  const { fileId } = await api("POST", "/api/v1/audio/upload", form);
  const segments = bigTranscript(count, hours);
  const db = new pg.Client({ connectionString: await server.databaseUrl() });
  await db.connect();
  try {
    await storeTranscript((sql, params) => db.query(sql, params), fileId, segments, Math.round(hours * 3600));
  } finally {
    await db.end();
  }
  const stored = Buffer.byteLength(JSON.stringify(segments));
  console.log(`\n${server.setup}; ${count} segments over ${hours} h (stored with word timings: ${kb(stored)})`);

  // (a) get_text on the wire
  const textUrl = `${server.base}/voice_yuelu/api/v2/audio/text/get_text?fileId=${fileId}`;
  console.log("\nget_text on the wire:");
  for (const [label, url, encoding] of [
    ["uncompressed", textUrl, "identity"],
    ["Accept-Encoding: gzip", textUrl, "gzip"],
    ["Accept-Encoding: gzip, br", textUrl, "gzip, br"],
    ["withWords=1, gzip, br", `${textUrl}&withWords=1`, "gzip, br"],
  ]) {
    const r = await wireBytes(url, { cookie, "accept-encoding": encoding });
    console.log(`  ${label.padEnd(28)} ${kb(r.bytes).padStart(10)}  (content-encoding: ${r.encoding})`);
  }

  // (b)–(d) in Chromium
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: DESKTOP, locale: "zh-CN" });
  await context.addCookies(
    cookie.split("; ").map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: server.base };
    }),
  );
  const page = await context.newPage();
  await metrics.watchFirstRows(page);
  const url = `${server.base}/detail?fileId=${fileId}&timeLen=${Math.round(hours * 3600)}&fileName=bench-5h.wav`;
  const cold = await metrics.openDetail(page, url);
  const warm = [];
  for (let i = 0; i < visits; i++) {
    await metrics.waitForWordTimes(page); // the last visit done first (see waitForWordTimes)
    warm.push(await metrics.openDetail(page, url));
  }
  const rows = await page.getByTestId("segment").count();
  console.log(`\n/detail at ${DESKTOP.width}×${DESKTOP.height}, first rows painted (ms after navigation):`);
  console.log(
    `  first visit ${ms(cold)}; warm visits ${warm.map((t) => t.toFixed(0)).join(", ")} → median ${ms(metrics.percentile(warm, 50))}`,
  );
  console.log(`  segment rows in the DOM: ${rows} of ${count}`);

  const run = await metrics.scrollToEnd(page);
  console.log(`\nfull scroll to the end (${run.height} px, 60 % of the viewport a frame):`);
  console.log(`  frame times ${line(metrics.summary(run.frames))}`);
  console.log(
    `  frames with a gap: ${run.blankFrames}; most rows in the DOM: ${run.maxRows}; reached the end: ${run.reachedEnd}`,
  );

  await metrics.watchKeys(page);
  const search = metrics.summary(await metrics.typeTimed(page, page.getByRole("searchbox"), "numbers"));
  await page.getByRole("searchbox").fill("");
  const text = page.getByTestId("segment-text").nth(2);
  await text.dblclick(); // a double-click opens a line for editing (a click plays from it)
  const box = page.getByTestId("segment").nth(2).getByRole("textbox");
  await box.press("End");
  const edit = metrics.summary(await metrics.typeTimed(page, box, " benchmark edit"));
  await box.press("Escape");
  console.log("\nkeystroke to the next frame:");
  console.log(`  search box   ${line(search)}`);
  console.log(`  editing line ${line(edit)}`);
} finally {
  await browser?.close();
  await server.stop();
}
