import { generateKeyPairSync, randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Db } from "@yuelu/db";

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

export async function mockAlipayKeys(db: Db, file?: string): Promise<MockAlipayKeys> {
  if (file) return JSON.parse(await readFile(file, "utf8")) as MockAlipayKeys;
  const existing = await db.appSetting.findUnique({ where: { key: KEY } });
  if (existing) return existing.value as unknown as MockAlipayKeys;
  // Two replicas starting together: the first insert wins, both read it back.
  await db.appSetting.createMany({
    data: [{ key: KEY, value: generateMockAlipayKeys() as object }],
    skipDuplicates: true,
  });
  const row = await db.appSetting.findUniqueOrThrow({ where: { key: KEY } });
  return row.value as unknown as MockAlipayKeys;
}
