import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Share-link passwords (docs/share.md), stored as "scrypt$<salt>$<hash>" (base64url). scrypt is slow
 * on purpose: a leaked table must not give the passwords away; the cost is paid once per form post.
 */

const KEY_BYTES = 32;
/** N = 2^14, r = 8: about 16 MiB and a few tens of milliseconds per hash */
const PARAMS: ScryptOptions = { N: 16_384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

function derive(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFC"), salt, KEY_BYTES, PARAMS, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashSharePassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt);
  return `scrypt$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

/** Whether `password` matches the stored hash; compared in constant time, a malformed hash never matches. */
export async function verifySharePassword(password: string, stored: string): Promise<boolean> {
  const [scheme, saltText, hashText] = stored.split("$");
  if (scheme !== "scrypt" || !saltText || !hashText) return false;
  const expected = Buffer.from(hashText, "base64url");
  if (expected.length !== KEY_BYTES) return false;
  const actual = await derive(password, Buffer.from(saltText, "base64url"));
  return timingSafeEqual(actual, expected);
}
