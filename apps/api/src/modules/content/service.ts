import { type Lang, toEpochSeconds } from "@yuelu/contracts";
import type { Db } from "@yuelu/db";

export async function banners(db: Db) {
  const rows = await db.banner.findMany({ where: { enabled: true }, orderBy: { sort: "asc" } });
  return rows.map(({ id, image, link, title }) => ({ id, image, link, title }));
}

export async function links(db: Db, type: number, lang: Lang) {
  const rows = await db.indexLink.findMany({ where: { type }, orderBy: { sort: "asc" } });
  return rows.map((l) => ({ id: l.id, type: l.type, name: lang === "en" ? l.nameEn : l.name, url: l.url }));
}

interface LimitedOfferSetting {
  enabled?: boolean;
  goodsId?: number;
  endTime?: number;
  title?: string;
  titleEn?: string;
}

/** The limited-time offer an operator configures in app_settings ('limited_offer'). */
export async function limitedOffer(db: Db, lang: Lang, now = new Date()) {
  const row = await db.appSetting.findUnique({ where: { key: "limited_offer" } });
  const s = (row?.value ?? {}) as LimitedOfferSetting;
  const endTime = Number(s.endTime ?? 0);
  const remaining = Math.max(0, endTime - Math.floor(now.getTime() / 1000));
  const enabled = Boolean(s.enabled) && remaining > 0;
  return {
    enabled,
    goodsId: Number(s.goodsId ?? 0),
    title: (lang === "en" ? s.titleEn : s.title) ?? "",
    endTime: enabled ? endTime : 0,
    remaining: enabled ? remaining : 0,
  };
}

/** Activities running now. */
export async function activities(db: Db, lang: Lang, now = new Date()) {
  const rows = await db.activity.findMany({
    where: { startAt: { lte: now }, OR: [{ endAt: null }, { endAt: { gt: now } }] },
    orderBy: { sort: "asc" },
  });
  return rows.map((a) => ({
    id: a.id,
    title: lang === "en" ? a.titleEn : a.title,
    image: a.image,
    link: a.link,
    startTime: toEpochSeconds(a.startAt),
    endTime: toEpochSeconds(a.endAt),
  }));
}
