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
  /** the reward tasks and their progress, named in `lang` */
  tasks: {
    all: [...me, "tasks"] as const,
    list: (lang: string) => [...me, "tasks", lang] as const,
  },
  /** the bean ledger (/personalInfo?menu=coinDetail) */
  beans: {
    all: [...me, "beans"] as const,
    detail: (params: object, lang: string) => [...me, "beans", params, lang] as const,
  },
  /** the message centre's lists (readSign -1 all, 0 unread), in `lang` */
  messages: {
    all: [...me, "messages"] as const,
    list: (readSign: number, lang: string) => [...me, "messages", readSign, lang] as const,
  },
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
  /**
   * the cashier's poll of one QR (an order and its expiry): outside `commerce`, so what a payment
   * invalidates never asks it again
   */
  payResult: (goodsId: number, orderNumber: string, expireTime: number) =>
    [...me, "pay-result", goodsId, orderNumber, expireTime] as const,
  /** text to speech: the user's works, a task's progress, today's characters */
  tts: {
    all: [...me, "tts"] as const,
    works: (params: object, lang: string) => [...me, "tts", "works", params, lang] as const,
    progress: (taskIds: readonly number[]) => [...me, "tts", "progress", taskIds.join(",")] as const,
    quota: [...me, "tts", "quota"] as const,
  },
  /** my voices, voice works (sung and converted songs) and their progress, today's voice works */
  voice: {
    all: [...me, "voice"] as const,
    myVoices: [...me, "voice", "mine"] as const,
    voiceProgress: (voiceIds: readonly number[]) => [...me, "voice", "mine-progress", voiceIds.join(",")] as const,
    works: (kind: string) => [...me, "voice", "works", kind] as const,
    workList: (kind: string, params: object, lang: string) => [...me, "voice", "works", kind, params, lang] as const,
    workProgress: (workIds: readonly number[]) => [...me, "voice", "work-progress", workIds.join(",")] as const,
    quota: [...me, "voice", "quota"] as const,
  },
  /** API keys and webhook endpoints (/personalInfo?menu=developer), an endpoint's deliveries by page */
  integrations: {
    all: [...me, "integrations"] as const,
    apiKeys: [...me, "integrations", "api-keys"] as const,
    webhooks: [...me, "integrations", "webhooks"] as const,
    deliveries: (endpointId: number, page: number) =>
      [...me, "integrations", "webhooks", endpointId, "deliveries", page] as const,
  },
  /** the voices the account remembers (/people, docs/people.md) */
  people: [...me, "people"] as const,
  /** not personal: the built-in tunes (named in `lang`) and what this install's voice features can do */
  voiceTunes: (lang: string) => ["voice", "tunes", lang] as const,
  voiceCapabilities: ["voice", "capabilities"] as const,
  /** not personal: the voice library's filter values and its pages, named in `lang` */
  voiceLibrary: {
    options: (lang: string) => ["voice-library", "options", lang] as const,
    list: (params: object, lang: string) => ["voice-library", "list", params, lang] as const,
  },
  /** not personal: the catalogue of membership plans (1) or duration cards (0), named in `lang` */
  payGoods: (goodsType: number, lang: string) => ["pay-goods", goodsType, lang] as const,
  /** not personal: the engines installed on the server */
  dictationConfig: (lang: string) => ["dictation", "configuration", lang] as const,
  surveyOptions: (lang: string) => ["survey-options", lang] as const,
  /** not personal: the shop's cash goods ('buy directly') and its goods for beans */
  shop: {
    cashGoods: (lang: string) => ["shop", "cash-goods", lang] as const,
    goods: (lang: string) => ["shop", "goods", lang] as const,
  },
  feedbackCategories: (lang: string) => ["feedback", "categories", lang] as const,
  help: {
    titles: (lang: string) => ["help", "titles", lang] as const,
    document: (slug: string | undefined, lang: string) => ["help", "doc", slug, lang] as const,
  },
};
