/**
 * Every query key of the app in one place, so a mutation in one feature can invalidate what
 * another shows (a transcription charges the header's card time). Everything under ["me"] is the
 * signed-in user's and is dropped at sign-in and sign-out.
 */
const me = ["me"] as const;
const records = [...me, "records"] as const;
const transcript = [...me, "transcript"] as const;
const commerce = [...me, "commerce"] as const;

export const queryKeys = {
  me,
  deletionStatus: [...me, "deletion"] as const,
  userInfo: [...me, "info"] as const,
  storage: [...me, "storage"] as const,
  assets: [...me, "assets"] as const,
  unread: [...me, "unread"] as const,
  checkin: [...me, "checkin"] as const,
  menus: [...me, "menus"] as const,
  hotWords: [...me, "hotWords"] as const,
  records: {
    all: records,
    lists: () => [...records, "list"] as const,
    list: (params: object) => [...records, "list", params] as const,
    recycle: (params: object) => [...records, "recycle", params] as const,
    detail: (fileId: number) => [...records, "record", fileId] as const,
    progress: (fileIds: readonly number[]) => [...records, "progress", fileIds.join(",")] as const,
  },
  transcript: {
    all: transcript,
    text: (fileId: number) => [...transcript, fileId] as const,
  },
  /** the user's orders, checkouts and time cards: a payment invalidates all of it */
  commerce: {
    all: commerce,
    orders: (params: object, lang: string) => [...commerce, "orders", params, lang] as const,
    transferOrder: [...commerce, "transfer-order"] as const,
    checkout: (goodsId: number, lang: string) => [...commerce, "checkout", goodsId, lang] as const,
    timeCards: (params: object, lang: string) => [...commerce, "time-cards", params, lang] as const,
    durationDetail: (lang: string) => [...commerce, "duration-detail", lang] as const,
  },
  /** not personal: the catalogue of membership plans (1) or duration cards (0), named in `lang` */
  payGoods: (goodsType: number, lang: string) => ["pay-goods", goodsType, lang] as const,
  /** not personal: the engines installed on the server */
  dictationConfig: (lang: string) => ["dictation", "configuration", lang] as const,
  surveyOptions: (lang: string) => ["survey-options", lang] as const,
  help: {
    titles: (lang: string) => ["help", "titles", lang] as const,
    document: (slug: string | undefined, lang: string) => ["help", "doc", slug, lang] as const,
  },
};
