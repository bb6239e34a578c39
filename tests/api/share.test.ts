import { randomBytes, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { type Segment, SHARE_GUESS_LIMIT, SHARE_PASSWORD_LIMIT, type ShareLink } from "@yuelu/contracts";
import { hashSharePassword, verifySharePassword } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";

/**
 * Share links (docs/share.md): generate_url, the owner's create/list/revoke, and the public page
 * /s/<token> a visitor without an account opens — expiry, password, revocation, the recycle bin,
 * guessing limits, and that nothing of the owner's leaks beyond the display name.
 */

let t: TestApp;
let alice: SignedIn;
let bob: SignedIn;
const NICK = "小爱 Alice";

beforeAll(async () => {
  // one proxy hop trusted: each test visits from its own X-Forwarded-For address, so limits stay apart
  t = await createTestApp({ TRUST_PROXY_HOPS: "1" });
  alice = await signIn(t);
  bob = await signIn(t);
  await t.db.user.update({ where: { id: alice.userId }, data: { nickName: NICK } });
});
afterAll(async () => {
  await t?.close();
});

const api = (path: string) => `/voice_yuelu${path}`;
const get = (who: SignedIn, path: string) => t.http().get(api(path)).set("Cookie", who.cookie).set("lang", "en");
const post = (who: SignedIn, path: string, body: object) =>
  t.http().post(api(path)).set("Cookie", who.cookie).set("lang", "en").send(body);

/** A visitor from an address of its own, without any cookie. */
function visitor() {
  const ip = `10.${randomBytes(3).join(".")}`;
  return {
    ip,
    get: (path: string) => t.http().get(path).set("X-Forwarded-For", ip),
    head: (path: string) => t.http().head(path).set("X-Forwarded-For", ip),
    post: (path: string, form: Record<string, string>) =>
      t.http().post(path).set("X-Forwarded-For", ip).type("form").send(form),
  };
}

const SEGMENTS: Segment[] = [
  { spkName: "说话人1", startTime: 0, endTime: 4200, text: "Welcome to the roadmap review." },
  { spkName: "Dana", startTime: 4200, endTime: 9050, text: "Shipping <b>next</b> week & then testing." },
  { spkName: "说话人1", startTime: 65_000, endTime: 70_000, text: "Thanks everyone." },
];
const AUDIO = randomBytes(4096);

async function record(
  who: SignedIn,
  options: { fileName?: string; abstracts?: string; transcript?: boolean; segments?: Segment[] } = {},
) {
  const key = `media/${who.userId}/${randomUUID()}.mp3`;
  await t.files.put(key, Readable.from(AUDIO));
  const rec = await t.db.audioRecord.create({
    data: {
      userId: who.userId,
      fileName: options.fileName ?? `Roadmap ${randomUUID().slice(0, 8)}.mp3`,
      format: "mp3",
      fileSize: BigInt(AUDIO.length),
      timeLen: 70,
      storageKey: key,
      fileStatus: 2,
      progress: 100,
    },
  });
  if (options.transcript !== false) {
    await t.db.transcript.create({
      data: {
        fileId: rec.fileId,
        asrResult: options.segments ?? SEGMENTS,
        language: "en",
        abstracts: options.abstracts ?? "The team reviewed the roadmap.",
      },
    });
  }
  return rec;
}

async function create(who: SignedIn, body: Record<string, unknown>): Promise<ShareLink> {
  const res = await post(who, "/api/v1/share/create", body);
  expect(res.body.status_code, res.body.status_msg).toBe(1);
  return res.body.data as ShareLink;
}

const pathOf = (url: string) => new URL(url).pathname;
const tokenOf = (url: string) => pathOf(url).slice("/s/".length);

describe("generate_url", () => {
  it("with only fileId makes a 7-day link with audio at /s/<token> of ≥128 random bits", async () => {
    const rec = await record(alice);
    const before = Date.now();
    const res = await get(alice, `/text/generate_url?fileId=${rec.fileId}`);
    expect(res.body.status_code, res.body.status_msg).toBe(1);
    const url = new URL(res.body.data.url);
    expect(url.pathname).toMatch(/^\/s\/[A-Za-z0-9_-]+$/);
    const token = tokenOf(res.body.data.url);
    // base64url: 6 bits a character
    expect(token.length * 6).toBeGreaterThanOrEqual(128);
    expect(Buffer.from(token, "base64url").length).toBe(32);
    const row = await t.db.shareLink.findUniqueOrThrow({ where: { token } });
    expect(row).toMatchObject({ fileId: rec.fileId, userId: alice.userId, withAudio: true, passwordHash: null });
    const days = (row.expiresAt!.getTime() - before) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
  });

  it("a repeated default call within a minute answers the same link; parallel calls make one", async () => {
    const rec = await record(alice);
    const urls = await Promise.all(
      [1, 2, 3].map(() => get(alice, `/text/generate_url?fileId=${rec.fileId}`).then((r) => r.body.data.url)),
    );
    const again = (await get(alice, `/text/generate_url?fileId=${rec.fileId}`)).body.data.url;
    // (each supertest request listens on a port of its own: compare the paths)
    expect(new Set([...urls, again].map(pathOf)).size).toBe(1);
    expect(await t.db.shareLink.count({ where: { fileId: rec.fileId } })).toBe(1);
  });

  it("explicit options make a new link to measure; bad ones are 10002", async () => {
    const rec = await record(alice);
    const res = await get(alice, `/text/generate_url?fileId=${rec.fileId}&expireDays=0&withAudio=0&password=open-up`);
    expect(res.body.status_code, res.body.status_msg).toBe(1);
    const row = await t.db.shareLink.findUniqueOrThrow({ where: { token: tokenOf(res.body.data.url) } });
    expect(row.expiresAt).toBeNull();
    expect(row.withAudio).toBe(false);
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    expect(row.passwordHash).not.toContain("open-up");
    for (const bad of ["expireDays=3", "password=abc", `password=${"x".repeat(65)}`]) {
      const refused = await get(alice, `/text/generate_url?fileId=${rec.fileId}&${bad}`);
      expect(refused.body.status_code, bad).toBe(10002);
    }
  });

  it("PUBLIC_URL, when set, is the link's origin", async () => {
    const other = await createTestApp({ PUBLIC_URL: "https://notes.example.com/" }, { shareDatabaseWith: t });
    try {
      const rec = await record(alice);
      const res = await other
        .http()
        .get(api(`/text/generate_url?fileId=${rec.fileId}`))
        .set("Cookie", alice.cookie);
      expect(res.body.data.url).toMatch(/^https:\/\/notes\.example\.com\/s\/[A-Za-z0-9_-]{43}$/);
    } finally {
      await other.close();
    }
  });

  it("someone else's record, one in the bin or without a transcript → 30001", async () => {
    const theirs = await record(bob);
    const binned = await record(alice);
    await t.db.audioRecord.update({ where: { fileId: binned.fileId }, data: { deletedAt: new Date() } });
    const none = await record(alice, { transcript: false });
    for (const fileId of [theirs.fileId, binned.fileId, none.fileId]) {
      expect((await get(alice, `/text/generate_url?fileId=${fileId}`)).body.status_code).toBe(30001);
      expect((await post(alice, "/api/v1/share/create", { fileId })).body.status_code).toBe(30001);
    }
    expect(await t.db.shareLink.count({ where: { fileId: theirs.fileId } })).toBe(0);
  });

  it("from another site's page (an <img> pointing at it) → 10007, HTTP 403, and no link is made", async () => {
    const rec = await record(alice);
    const fromElsewhere = [
      { "Sec-Fetch-Site": "cross-site" },
      { "Sec-Fetch-Site": "same-site" },
      { Origin: "https://evil.example" },
    ];
    for (const headers of fromElsewhere) {
      const res = await get(alice, `/text/generate_url?fileId=${rec.fileId}&password=chosen-by-them`).set(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.status_code, JSON.stringify(headers)).toBe(10007);
    }
    expect(await t.db.shareLink.count({ where: { fileId: rec.fileId } })).toBe(0);
    // the app's own page still makes one
    const own = await get(alice, `/text/generate_url?fileId=${rec.fileId}`).set("Sec-Fetch-Site", "same-origin");
    expect(own.body.status_code, own.body.status_msg).toBe(1);
  });
});

describe("the owner's links", () => {
  it("create, list with view counts, revoke; another user can neither list nor revoke them", async () => {
    const rec = await record(alice);
    const week = await create(alice, { fileId: rec.fileId, expireDays: 7, withAudio: true });
    const forever = await create(alice, { fileId: rec.fileId, expireDays: 0, withAudio: false, password: "s3cret" });
    expect(week).toMatchObject({ expireDays: 7, withAudio: true, hasPassword: false, viewCount: 0, state: "active" });
    expect(forever).toMatchObject({ expireDays: 0, expireTime: 0, withAudio: false, hasPassword: true });
    expect(week.expireTime - week.createTime).toBe(7 * 86_400);

    await visitor().get(pathOf(week.url)).expect(200);
    await visitor().get(pathOf(week.url)).expect(200);

    const list = (await get(alice, `/api/v1/share/list?fileId=${rec.fileId}`)).body.data.list as ShareLink[];
    expect(list.map((l) => l.id)).toEqual([forever.id, week.id]);
    expect(list.find((l) => l.id === week.id)).toMatchObject({ viewCount: 2 });
    expect(list.find((l) => l.id === week.id)!.lastViewTime).toBeGreaterThan(0);

    expect((await get(bob, `/api/v1/share/list?fileId=${rec.fileId}`)).body.status_code).toBe(30001);
    expect((await post(bob, "/api/v1/share/revoke", { id: week.id })).body.status_code).toBe(30001);
    await visitor().get(pathOf(week.url)).expect(200);

    expect((await post(alice, "/api/v1/share/revoke", { id: week.id })).body).toMatchObject({
      status_code: 1,
      data: { id: week.id },
    });
    // revoked twice: not found
    expect((await post(alice, "/api/v1/share/revoke", { id: week.id })).body.status_code).toBe(30001);
    const after = (await get(alice, `/api/v1/share/list?fileId=${rec.fileId}`)).body.data.list as ShareLink[];
    expect(after.map((l) => l.id)).toEqual([forever.id]);
  });

  it("without a session → 10001", async () => {
    const res = await t.http().get(api("/api/v1/share/list?fileId=1"));
    expect(res.body.status_code).toBe(10001);
  });

  it("passwords are scrypt-hashed and checked in constant time", async () => {
    const hash = await hashSharePassword("pass-1234");
    expect(hash).toMatch(/^scrypt\$[\w-]+\$[\w-]+$/);
    expect(await hashSharePassword("pass-1234")).not.toBe(hash);
    expect(await verifySharePassword("pass-1234", hash)).toBe(true);
    expect(await verifySharePassword("pass-1235", hash)).toBe(false);
    expect(await verifySharePassword("pass-1234", "scrypt$bad")).toBe(false);
  });
});

describe("the public page /s/<token>", () => {
  it("shows the transcript, speakers, times, summary, the owner's nickname and a player; nothing else", async () => {
    const rec = await record(alice, { fileName: "Roadmap <review>.mp3", abstracts: "Roadmap agreed for Q3." });
    const secret = await record(alice, { fileName: "Private diary of alice.mp3" });
    const link = await create(alice, { fileId: rec.fileId, expireDays: 30, withAudio: true });
    const res = await visitor().get(pathOf(link.url)).set("Accept-Language", "en-US,en;q=0.9,zh;q=0.5").expect(200);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.headers["x-robots-tag"]).toContain("noindex");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["content-security-policy"]).toContain("script-src 'nonce-");
    const html = res.text;
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<meta name="robots" content="noindex,nofollow">');
    expect(html).toContain('<meta property="og:title" content="Roadmap &lt;review&gt;.mp3">');
    expect(html).toContain('<meta property="og:type" content="article">');
    expect(html).toContain("Welcome to the roadmap review.");
    // escaped, never markup
    expect(html).toContain("Shipping &lt;b&gt;next&lt;/b&gt; week &amp; then testing.");
    expect(html).toContain("Dana");
    // default speaker labels read in the page's language
    expect(html).toContain("Speaker 1");
    expect(html).toContain("01:05");
    expect(html).toContain('data-start="65"');
    expect(html).toContain("Roadmap agreed for Q3.");
    expect(html).toContain(`Shared by ${NICK}`);
    expect(html).toContain(`src="${pathOf(link.url)}/audio"`);
    // nothing else of the owner's
    expect(html).not.toContain(alice.phone);
    expect(html).not.toContain(secret.fileName);
    expect(html).not.toContain(rec.storageKey);
    expect(html).not.toContain(`/${alice.userId}/`);
    expect(html).not.toMatch(/userid|avatar|fileId/i);
    expect(html).not.toContain("/assets/");
  });

  it("shows only what the owner sees: no summary while the owner's transcript has none (issue 43)", async () => {
    const rec = await record(alice, { abstracts: "" });
    const link = await create(alice, { fileId: rec.fileId });
    const owner = await get(alice, `/api/v2/audio/text/get_text?fileId=${rec.fileId}`);
    expect(owner.body.data.abstracts).toBe("");
    const page = await visitor()
      .get(`${pathOf(link.url)}?lang=en`)
      .expect(200);
    expect(page.text).toContain("Welcome to the roadmap review.");
    // no summary section at all: none is made for the visitor that the owner's page does not have
    expect(page.text).not.toContain('class="card summary"');
    expect(page.text).not.toContain("<h2>Summary</h2>");
    // the owner saves one: the page shows that, as saved
    await t.db.transcript.update({ where: { fileId: rec.fileId }, data: { abstracts: "Saved by the owner." } });
    const saved = await visitor()
      .get(`${pathOf(link.url)}?lang=en`)
      .expect(200);
    expect(saved.text).toContain("<h2>Summary</h2>");
    expect(saved.text).toContain("Saved by the owner.");
  });

  it("speaks the asked language: ?lang=, then Accept-Language, zh by default", async () => {
    const rec = await record(alice);
    const link = await create(alice, { fileId: rec.fileId });
    const zh = await visitor().get(pathOf(link.url));
    expect(zh.text).toContain('<html lang="zh-CN">');
    expect(zh.text).toContain("转写全文");
    expect(zh.text).toContain("说话人1");
    const en = await visitor()
      .get(`${pathOf(link.url)}?lang=en`)
      .set("Accept-Language", "zh-CN");
    expect(en.text).toContain('<html lang="en">');
    // Accept-Language by its q-values, not its order
    const ranked = await visitor().get(pathOf(link.url)).set("Accept-Language", "fr;q=1, zh;q=0.2, en;q=0.8");
    expect(ranked.text).toContain('<html lang="en">');
    expect(ranked.headers["content-language"]).toBe("en");
  });

  it("serves the audio with byte ranges; views count page loads, not audio requests", async () => {
    const rec = await record(alice);
    const link = await create(alice, { fileId: rec.fileId });
    const v = visitor();
    await v.get(pathOf(link.url)).expect(200);
    const part = await v
      .get(`${pathOf(link.url)}/audio`)
      .set("Range", "bytes=100-199")
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => done(null, Buffer.concat(chunks)));
      });
    expect(part.status).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 100-199/${AUDIO.length}`);
    expect(part.headers["content-type"]).toBe("audio/mpeg");
    expect(Buffer.compare(part.body as Buffer, AUDIO.subarray(100, 200))).toBe(0);
    const whole = await v.get(`${pathOf(link.url)}/audio`);
    expect(whole.status).toBe(200);
    expect(whole.headers["content-length"]).toBe(String(AUDIO.length));
    await v.head(pathOf(link.url)).expect(200);
    const row = await t.db.shareLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(row.viewCount).toBe(1);
    // parallel page loads all count (an atomic increment, not read-then-write)
    await Promise.all([1, 2, 3, 4, 5].map(() => visitor().get(pathOf(link.url)).expect(200)));
    expect((await t.db.shareLink.findUniqueOrThrow({ where: { id: link.id } })).viewCount).toBe(6);
  });

  it("timed words go with their lines (issue 45), for the script that marks and seeks by word", async () => {
    const words = (texts: string[], start: number) =>
      texts.map((text, i) => ({ text, startTime: start + i * 450, endTime: start + i * 450 + 400 }));
    const segments: Segment[] = [
      // the words of the line, each with its time
      { ...SEGMENTS[1]!, words: words(["Shipping", "<b>next</b>", "week &", "then", "testing."], 4200) },
      // edited since: its words no longer tell its text, so it stays plain
      { ...SEGMENTS[2]!, words: words(["Thanks", "all."], 65_000), personId: 7, speaker: 0 },
      {
        spkName: "王老师",
        startTime: 70_000,
        endTime: 72_000,
        text: "好的，走吧。",
        words: words(["好", "的，", "走", "吧。"], 70_000),
      },
    ];
    const rec = await record(alice, { segments });
    const link = await create(alice, { fileId: rec.fileId, withAudio: true });
    const res = await visitor()
      .get(`${pathOf(link.url)}?lang=en`)
      .expect(200);
    const html = res.text;
    // each word "gap,length,step": characters since the word before, its characters, centiseconds since
    // the word before began; the text itself as before (escaped)
    expect(html).toContain(
      '<p class="text" data-w="0,8,420 1,11,45 1,6,45 1,4,45 1,8,45">Shipping &lt;b&gt;next&lt;/b&gt; week &amp; then testing.</p>',
    );
    expect(html).toContain('<p class="text">Thanks everyone.</p>');
    expect(html).toContain('<p class="text" data-w="0,1,7000 0,2,45 0,1,45 0,2,45">好的，走吧。</p>');
    expect(html).toContain("Click any word to play from there.");
    // the script that follows the words is the page's one script, with the response's nonce
    const nonce = /script-src 'nonce-([^']+)'/.exec(String(res.headers["content-security-policy"]))?.[1];
    expect(nonce).toBeTruthy();
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain(`<script nonce="${nonce}">`);
    expect(html).toMatch(/classList\.add\("now"\)/);
    // words carry their text and start only: nothing of the person or voice behind a line
    expect(html).not.toMatch(/personId|speaker"|endTime/);
    const zh = (await visitor().get(pathOf(link.url)).expect(200)).text;
    expect(zh).toContain("点击任意词语即可从该处播放。");
    // a transcript without word times keeps the line hint
    const plain = await record(alice);
    const plainLink = await create(alice, { fileId: plain.fileId, withAudio: true });
    const plainHtml = (
      await visitor()
        .get(`${pathOf(plainLink.url)}?lang=en`)
        .expect(200)
    ).text;
    expect(plainHtml).toContain("Click any line to play from there.");
    expect(plainHtml).not.toContain("data-w=");
  });

  it("without audio: no player, and /audio is 404", async () => {
    const rec = await record(alice);
    const link = await create(alice, { fileId: rec.fileId, withAudio: false });
    const page = await visitor().get(pathOf(link.url)).expect(200);
    expect(page.text).not.toContain("<audio");
    expect(page.text).toContain("Welcome to the roadmap review.");
    await visitor()
      .get(`${pathOf(link.url)}/audio`)
      .expect(404);
  });

  it("a password link asks for it; a wrong one is refused, the right one unlocks this link only", async () => {
    const rec = await record(alice);
    const locked = await create(alice, { fileId: rec.fileId, password: "open sesame" });
    const other = await create(alice, { fileId: rec.fileId, password: "open sesame" });
    const v = visitor();
    const form = await v.get(pathOf(locked.url)).expect(200);
    expect(form.text).toContain('type="password"');
    expect(form.text).not.toContain(rec.fileName);
    expect(form.text).not.toContain("Welcome to the roadmap review.");
    await v.get(`${pathOf(locked.url)}/audio`).expect(403);

    const wrong = await v.post(pathOf(locked.url), { password: "open sesame!" }).set("lang", "en");
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain("Wrong password");
    expect(wrong.headers["set-cookie"]).toBeUndefined();

    const right = await v.post(pathOf(locked.url), { password: "open sesame" });
    expect(right.status).toBe(303);
    expect(right.headers.location).toBe(pathOf(locked.url));
    const setCookie = [right.headers["set-cookie"] ?? []].flat().join("\n");
    expect(setCookie).toContain(`Path=${pathOf(locked.url)}`);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    const cookie = setCookie.split(";")[0]!;

    const page = await v.get(pathOf(locked.url)).set("Cookie", cookie).expect(200);
    expect(page.text).toContain("Welcome to the roadmap review.");
    await v
      .get(`${pathOf(locked.url)}/audio`)
      .set("Cookie", cookie)
      .expect(200);
    // the same cookie sent to another link (even renamed to that link's cookie) opens nothing
    const renamed = cookie.replace(`yl_share_${locked.id}=`, `yl_share_${other.id}=`);
    for (const c of [cookie, renamed]) {
      const res = await v.get(pathOf(other.url)).set("Cookie", c).expect(200);
      expect(res.text).toContain('type="password"');
      expect(res.text).not.toContain("Welcome to the roadmap review.");
    }
    // a forged, unsigned value opens nothing either
    const forged = await v.get(pathOf(locked.url)).set("Cookie", `yl_share_${locked.id}=${locked.id}`);
    expect(forged.text).toContain('type="password"');
  });

  it(`wrong passwords are limited: the ${SHARE_PASSWORD_LIMIT + 1}th try answers 429, even when right`, async () => {
    const rec = await record(alice);
    const link = await create(alice, { fileId: rec.fileId, password: "right-one" });
    const v = visitor();
    for (let i = 0; i < SHARE_PASSWORD_LIMIT; i++) {
      expect((await v.post(pathOf(link.url), { password: `guess-${i}` })).status).toBe(401);
    }
    const refused = await v.post(pathOf(link.url), { password: "right-one" });
    expect(refused.status).toBe(429);
    expect(refused.headers["set-cookie"]).toBeUndefined();
  });

  it("a guesser locks only itself out: a real viewer from another address still opens the link", async () => {
    const rec = await record(alice);
    const link = await create(alice, { fileId: rec.fileId, password: "right-one" });
    const attacker = visitor();
    for (let i = 0; i < SHARE_PASSWORD_LIMIT + 2; i++)
      await attacker.post(pathOf(link.url), { password: `guess-${i}` });
    expect((await attacker.post(pathOf(link.url), { password: "right-one" })).status).toBe(429);
    // the viewer the owner gave the password to is not locked out of the link
    const viewer = visitor();
    const unlocked = await viewer.post(pathOf(link.url), { password: "right-one" });
    expect(unlocked.status).toBe(303);
    const cookie = [unlocked.headers["set-cookie"] ?? []].flat().join("\n").split(";")[0]!;
    const page = await viewer.get(pathOf(link.url)).set("Cookie", cookie).expect(200);
    expect(page.text).toContain("Welcome to the roadmap review.");
    // the guesser is held on every link, not only this one
    const another = await create(alice, { fileId: rec.fileId, password: "right-one" });
    expect((await attacker.post(pathOf(another.url), { password: "guess" })).status).toBe(429);
  });

  it("an IPv6 guesser is counted by its /64: a new address of the same network guesses no more", async () => {
    const rec = await record(alice);
    const link = await create(alice, { fileId: rec.fileId, password: "right-one" });
    const network = `2001:db8:${randomBytes(2).toString("hex")}:${randomBytes(2).toString("hex")}`;
    const from = (address: string, password: string) =>
      t.http().post(pathOf(link.url)).set("X-Forwarded-For", address).type("form").send({ password });
    for (let i = 1; i <= SHARE_PASSWORD_LIMIT; i++) expect((await from(`${network}::${i}`, "guess")).status).toBe(401);
    expect((await from(`${network}:1:2:3:4`, "guess")).status).toBe(429);
    // another network (a viewer elsewhere) is not
    expect((await from(`2001:db8:ffff:${randomBytes(2).toString("hex")}::1`, "right-one")).status).toBe(303);
  });

  it("a revoked link answers 410 saying so, and reveals nothing of the record", async () => {
    const rec = await record(alice);
    const link = await create(alice, { fileId: rec.fileId });
    await post(alice, "/api/v1/share/revoke", { id: link.id });
    const res = await visitor().get(`${pathOf(link.url)}?lang=en`);
    expect(res.status).toBe(410);
    expect(res.headers["x-robots-tag"]).toContain("noindex");
    expect(res.text).toContain("revoked");
    expect(res.text).not.toContain(rec.fileName);
    expect(res.text).not.toContain("og:title");
    expect(res.text).not.toContain(NICK);
    await visitor()
      .get(`${pathOf(link.url)}/audio`)
      .expect(410);
    const zh = await visitor().get(pathOf(link.url));
    expect(zh.text).toContain("分享者已撤销此链接");
  });

  it("an expired link answers 410", async () => {
    const rec = await record(alice);
    const link = await create(alice, { fileId: rec.fileId, expireDays: 1 });
    await visitor().get(pathOf(link.url)).expect(200);
    await t.db.shareLink.update({ where: { id: link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await visitor().get(`${pathOf(link.url)}?lang=en`);
    expect(res.status).toBe(410);
    expect(res.text).toContain("expired");
    expect(res.text).not.toContain(rec.fileName);
    const list = (await get(alice, `/api/v1/share/list?fileId=${rec.fileId}`)).body.data.list as ShareLink[];
    expect(list.find((l) => l.id === link.id)?.state).toBe("expired");
  });

  it("a record moved to the recycle bin is gone; restored, the link works again", async () => {
    const rec = await record(alice);
    const link = await create(alice, { fileId: rec.fileId });
    await t.db.audioRecord.update({ where: { fileId: rec.fileId }, data: { deletedAt: new Date() } });
    const res = await visitor().get(`${pathOf(link.url)}?lang=en`);
    expect(res.status).toBe(410);
    expect(res.text).not.toContain(rec.fileName);
    await visitor()
      .get(`${pathOf(link.url)}/audio`)
      .expect(410);
    await t.db.audioRecord.update({ where: { fileId: rec.fileId }, data: { deletedAt: null } });
    await visitor().get(pathOf(link.url)).expect(200);
  });

  it("an owner who kept the default nickname (it ends with the phone's last four digits) is not named", async () => {
    const owner = await signIn(t);
    const rec = await record(owner);
    const link = await create(owner, { fileId: rec.fileId });
    const html = (
      await visitor()
        .get(`${pathOf(link.url)}?lang=en`)
        .expect(200)
    ).text;
    expect(html).toContain("Shared by a Yuelu user");
    expect(html).not.toContain(`用户${owner.phone.slice(-4)}`);
  });

  it("an owner who is disabled, or who asked to delete their account, shares nothing any more", async () => {
    for (const change of [{ disabledAt: new Date() }, { deleteRequestedAt: new Date() }]) {
      const owner = await signIn(t);
      const rec = await record(owner);
      const link = await create(owner, { fileId: rec.fileId });
      await visitor().get(pathOf(link.url)).expect(200);
      await t.db.user.update({ where: { id: owner.userId }, data: change });
      const res = await visitor().get(`${pathOf(link.url)}?lang=en`);
      expect(res.status).toBe(410);
      expect(res.text).not.toContain(rec.fileName);
      await visitor()
        .get(`${pathOf(link.url)}/audio`)
        .expect(410);
    }
  });

  it("unknown, guessed or malformed tokens are 404 pages, never the SPA or JSON", async () => {
    const v = visitor();
    for (const path of [`/s/${randomBytes(32).toString("base64url")}`, "/s/abc", "/s/abc/def/ghi", "/s/", "/s"]) {
      const res = await v.get(`${path}?lang=en`);
      expect(res.status, path).toBe(404);
      expect(res.headers["content-type"]).toContain("text/html");
      expect(res.text).toContain("Link not found");
      expect(res.text).toContain('<meta name="robots" content="noindex,nofollow">');
    }
  });

  it(`guessing is rate-limited per address: after ${SHARE_GUESS_LIMIT} unknown tokens, 429`, async () => {
    const rec = await record(alice);
    const link = await create(alice, { fileId: rec.fileId });
    const guesser = visitor();
    // valid views do not spend the guesses
    for (let i = 0; i < 3; i++) await guesser.get(pathOf(link.url)).expect(200);
    for (let i = 0; i < SHARE_GUESS_LIMIT; i++) {
      await guesser.get(`/s/${randomBytes(32).toString("base64url")}`).expect(404);
    }
    const refused = await guesser.get(`/s/${randomBytes(32).toString("base64url")}`);
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBeDefined();
    // the limited address cannot open even a real link meanwhile; another address can
    await guesser.get(pathOf(link.url)).expect(429);
    await visitor().get(pathOf(link.url)).expect(200);
    // counted in the shared limiter (Redis when configured): a second replica refuses this address too
    const replica = await createTestApp({ TRUST_PROXY_HOPS: "1" }, { shareDatabaseWith: t });
    try {
      const res = await replica.http().get(pathOf(link.url)).set("X-Forwarded-For", guesser.ip);
      expect(res.status).toBe(t.redis ? 429 : 200);
    } finally {
      await replica.close();
    }
  });
});
