import { type Lang, StatusCode } from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import { AppError } from "@yuelu/domain";

export async function helpTitles(db: Db, lang: Lang) {
  const docs = await db.helpDocument.findMany({
    orderBy: { sort: "asc" },
    select: { id: true, slug: true, title: true, titleEn: true },
  });
  return docs.map((d) => ({ id: d.id, slug: d.slug, title: lang === "en" ? d.titleEn : d.title }));
}

/** One help document by slug or id, in the request's language. */
export async function helpDocument(db: Db, lang: Lang, by: { slug?: string; id?: number }) {
  const doc = by.slug
    ? await db.helpDocument.findUnique({ where: { slug: by.slug } })
    : by.id !== undefined
      ? await db.helpDocument.findUnique({ where: { id: by.id } })
      : null;
  if (!doc) throw new AppError(StatusCode.RecordNotFound);
  return {
    id: doc.id,
    slug: doc.slug,
    title: lang === "en" ? doc.titleEn : doc.title,
    content: lang === "en" ? doc.contentEn : doc.content,
  };
}
