import { generateKeyPairSync, randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { HotSql } from "@yuelu/runtime";

/**
 * The mock gateway's RSA key pair (it signs notifications as Alipay does) and the merchant's own
 * key pair (the Alipay SDK our notification handler runs needs one), generated on first start and
 * kept in app_settings so every API replica signs and verifies with the same keys — or given in
 * MOCK_ALIPAY_KEYS_FILE by whoever wants to sign notifications themselves (integrators, benches).
 */
export interface MockAlipayKeys {
  appId: string;
  gatewayPrivateKey: string;
  gatewayPublicKey: string;
  merchantPrivateKey: string;
}

const KEY = "mock_alipay_keys";

export function generateMockAlipayKeys(): MockAlipayKeys {
  const pair = () =>
    generateKeyPairSync("rsa", {
      modulusLength: 2048,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs1", format: "pem" },
    });
  const gateway = pair();
  const merchant = pair();
  return {
    appId: `2021${randomBytes(6).readUIntBE(0, 6).toString().padStart(12, "0").slice(0, 12)}`,
    gatewayPrivateKey: gateway.privateKey,
    gatewayPublicKey: gateway.publicKey,
    merchantPrivateKey: merchant.privateKey,
  };
}

/**
 * The keys, read (and on the first start written) with plain statements: a start runs no ORM query
 * (bench/README.md "Start-up").
 */
export async function mockAlipayKeys(sql: Pick<HotSql, "once">, file?: string): Promise<MockAlipayKeys> {
  if (file) return JSON.parse(await readFile(file, "utf8")) as MockAlipayKeys;
  const read = async () => (await sql.once<{ value: MockAlipayKeys }>(READ, [KEY]))[0]?.value;
  const existing = await read();
  if (existing) return existing;
  // Two replicas starting together: the first insert wins, both read it back.
  await sql.once(INSERT, [KEY, JSON.stringify(generateMockAlipayKeys())]);
  const row = await read();
  if (!row) throw new Error("the mock gateway's keys could not be stored");
  return row;
}

const READ = "SELECT value FROM app_settings WHERE key = $1";
const INSERT = "INSERT INTO app_settings (key, value) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO NOTHING";
