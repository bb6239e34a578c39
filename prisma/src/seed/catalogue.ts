import { randomUUID } from "node:crypto";

/**
 * The catalogue a fresh install needs. Rows carry fixed ids so that re-seeding finds them and
 * leaves them alone (an operator's later edits are kept).
 */

const HOUR = 3600;
const DAY = 86400;

/**
 * goodsType 1: membership plans, prices in fen. Ids 8 and 9 show a discount (84 and 336); id 9 shows
 * its '¥78 saved' corner: 12 monthly plans cost ¥414.
 */
export const membershipPlans = [
  {
    goodsId: 7,
    goodsName: "月度会员",
    goodsNameEn: "Monthly membership",
    priceFen: 3450,
    originalPriceFen: 3450,
    memberDays: 30,
    sort: 1,
  },
  {
    goodsId: 8,
    goodsName: "季度会员",
    goodsNameEn: "Quarterly membership",
    priceFen: 8400,
    originalPriceFen: 10350,
    memberDays: 90,
    sort: 2,
  },
  {
    goodsId: 9,
    goodsName: "年度会员",
    goodsNameEn: "Annual membership",
    priceFen: 33600,
    originalPriceFen: 41400,
    memberDays: 365,
    showSaved: true,
    sort: 3,
  },
].map((g) => ({ ...g, goodsType: 1, duration: 0, inShop: false }));

/** goodsType 0: duration cards (transcription time), valid one year after purchase. */
export const durationCards = [
  {
    goodsId: 1,
    goodsName: "1小时时长卡",
    goodsNameEn: "1-hour card",
    priceFen: 600,
    originalPriceFen: 600,
    duration: 1 * HOUR,
    inShop: true,
    sort: 1,
  },
  {
    goodsId: 2,
    goodsName: "5小时时长卡",
    goodsNameEn: "5-hour card",
    priceFen: 2500,
    originalPriceFen: 3000,
    duration: 5 * HOUR,
    inShop: true,
    sort: 2,
  },
  {
    goodsId: 3,
    goodsName: "10小时时长卡",
    goodsNameEn: "10-hour card",
    priceFen: 4500,
    originalPriceFen: 6000,
    duration: 10 * HOUR,
    inShop: true,
    sort: 3,
  },
  {
    goodsId: 4,
    goodsName: "30小时时长卡",
    goodsNameEn: "30-hour card",
    priceFen: 12000,
    originalPriceFen: 18000,
    duration: 30 * HOUR,
    inShop: false,
    sort: 4,
  },
  {
    goodsId: 5,
    goodsName: "100小时时长卡",
    goodsNameEn: "100-hour card",
    priceFen: 36000,
    originalPriceFen: 60000,
    duration: 100 * HOUR,
    inShop: false,
    sort: 5,
  },
].map((g) => ({ ...g, goodsType: 0, memberDays: 0 }));

/** Goods exchanged for beans; the cards they grant are valid 3 months (90 days). */
export const shopGoods = [
  {
    goodsId: 101,
    goodsName: "30分钟时长卡",
    goodsNameEn: "30-minute card",
    goodsIntroduce: "兑换后3个月内有效，可用于音视频转文字",
    goodsIntroduceEn: "Valid for 3 months after exchange, for audio/video transcription",
    goodsPicPath: "/static/rewards/30min.png",
    duration: 30 * 60,
    originalCoin: 300,
    exchangeCoin: 300,
    discount: false,
    sort: 1,
  },
  {
    goodsId: 102,
    goodsName: "1小时时长卡",
    goodsNameEn: "1-hour card",
    goodsIntroduce: "兑换后3个月内有效，可用于音视频转文字",
    goodsIntroduceEn: "Valid for 3 months after exchange, for audio/video transcription",
    goodsPicPath: "/static/rewards/1h.png",
    duration: 1 * HOUR,
    originalCoin: 600,
    exchangeCoin: 500,
    discount: true,
    sort: 2,
  },
  {
    goodsId: 103,
    goodsName: "2小时时长卡",
    goodsNameEn: "2-hour card",
    goodsIntroduce: "兑换后3个月内有效，可用于音视频转文字",
    goodsIntroduceEn: "Valid for 3 months after exchange, for audio/video transcription",
    goodsPicPath: "/static/rewards/2h.png",
    duration: 2 * HOUR,
    originalCoin: 1200,
    exchangeCoin: 960,
    discount: true,
    sort: 3,
  },
  {
    goodsId: 104,
    goodsName: "5小时时长卡",
    goodsNameEn: "5-hour card",
    goodsIntroduce: "兑换后3个月内有效，可用于音视频转文字",
    goodsIntroduceEn: "Valid for 3 months after exchange, for audio/video transcription",
    goodsPicPath: "/static/rewards/5h.png",
    duration: 5 * HOUR,
    originalCoin: 3000,
    exchangeCoin: 2200,
    discount: true,
    sort: 4,
  },
].map((g) => ({ ...g, effectiveTime: 90 * DAY }));

/** Check-in calendar: beans every day, a time card on each 7th day (signRewardType 1 = seconds). */
export const signRewards = Array.from({ length: 31 }, (_, i) => {
  const day = i + 1;
  const weekly: Record<number, { seconds: number; pic: string }> = {
    7: { seconds: 30 * 60, pic: "/static/rewards/30min.png" },
    14: { seconds: 1 * HOUR, pic: "/static/rewards/1h.png" },
    21: { seconds: 2 * HOUR, pic: "/static/rewards/2h.png" },
    28: { seconds: 3 * HOUR, pic: "/static/rewards/3h.png" },
  };
  const card = weekly[day];
  return card
    ? { day, signRewardType: 1, signRewardNumber: card.seconds, rewardPicPath: card.pic }
    : { day, signRewardType: 0, signRewardNumber: day > 28 ? 30 : 10, rewardPicPath: "/static/rewards/beans.png" };
});

/** challengeType 0 daily, 1 one-off challenge. rewardType 0 beans, 1 time card seconds. */
export const challengeTasks = [
  {
    challengeId: 1,
    challengeType: 0,
    action: "checkin",
    progressFinish: 1,
    rewardType: 0,
    rewardNumber: 10,
    challengeName: "每日签到",
    challengeNameEn: "Daily check-in",
    challengeDesc: "完成今日签到",
    challengeDescEn: "Check in today",
  },
  {
    challengeId: 2,
    challengeType: 0,
    action: "transcribe",
    progressFinish: 1,
    rewardType: 0,
    rewardNumber: 20,
    challengeName: "转写一个文件",
    challengeNameEn: "Transcribe a file",
    challengeDesc: "今日完成一次音视频转文字",
    challengeDescEn: "Finish one transcription today",
  },
  {
    challengeId: 3,
    challengeType: 0,
    action: "tts",
    progressFinish: 1,
    rewardType: 0,
    rewardNumber: 10,
    challengeName: "体验文字转语音",
    challengeNameEn: "Try text to speech",
    challengeDesc: "今日生成一次配音",
    challengeDescEn: "Generate speech once today",
  },
  {
    challengeId: 4,
    challengeType: 0,
    action: "export",
    progressFinish: 1,
    rewardType: 0,
    rewardNumber: 10,
    challengeName: "导出一次文稿",
    challengeNameEn: "Export a transcript",
    challengeDesc: "今日导出一次转写文稿",
    challengeDescEn: "Export a transcript today",
  },
  {
    challengeId: 101,
    challengeType: 1,
    action: "survey",
    progressFinish: 1,
    rewardType: 0,
    rewardNumber: 50,
    challengeName: "完善身份信息",
    challengeNameEn: "Complete your profile",
    challengeDesc: "完成新用户身份问卷",
    challengeDescEn: "Answer the new-user survey",
  },
  {
    challengeId: 102,
    challengeType: 1,
    action: "upload",
    progressFinish: 1,
    rewardType: 0,
    rewardNumber: 50,
    challengeName: "首次上传",
    challengeNameEn: "First upload",
    challengeDesc: "上传第一个音视频文件",
    challengeDescEn: "Upload your first audio or video file",
  },
  {
    challengeId: 103,
    challengeType: 1,
    action: "transcribe_seconds",
    progressFinish: 1 * HOUR,
    rewardType: 1,
    rewardNumber: 30 * 60,
    challengeName: "累计转写1小时",
    challengeNameEn: "Transcribe 1 hour in total",
    challengeDesc: "累计转写时长达到1小时",
    challengeDescEn: "Reach 1 hour of transcribed audio",
  },
  {
    challengeId: 104,
    challengeType: 1,
    action: "checkin_days",
    progressFinish: 7,
    rewardType: 1,
    rewardNumber: 1 * HOUR,
    challengeName: "累计签到7天",
    challengeNameEn: "Check in on 7 days",
    challengeDesc: "累计签到满7天",
    challengeDescEn: "Check in on 7 days in total",
  },
  {
    challengeId: 105,
    challengeType: 1,
    action: "gift_code",
    progressFinish: 1,
    rewardType: 0,
    rewardNumber: 30,
    challengeName: "使用一次兑换码",
    challengeNameEn: "Redeem a gift code",
    challengeDesc: "在礼包兑换中使用一次兑换码",
    challengeDescEn: "Redeem a gift code once",
  },
  {
    challengeId: 106,
    challengeType: 1,
    action: "purchase",
    progressFinish: 1,
    rewardType: 0,
    rewardNumber: 100,
    challengeName: "首次购买",
    challengeNameEn: "First purchase",
    challengeDesc: "购买一次会员或时长卡",
    challengeDescEn: "Buy a membership or a time card once",
  },
].map((t, i) => ({ ...t, sort: i + 1 }));

export const surveyOptions = [
  ...["学生", "教师", "职场人士", "媒体/自媒体", "法律从业者", "医疗从业者", "其他"].map((name, i) => ({
    kind: "identity",
    name,
    nameEn: [
      "Student",
      "Teacher",
      "Professional",
      "Media / creator",
      "Legal professional",
      "Medical professional",
      "Other",
    ][i] as string,
    sort: i + 1,
  })),
  ...["搜索引擎", "朋友推荐", "社交媒体", "应用商店", "广告", "其他"].map((name, i) => ({
    kind: "channel",
    name,
    nameEn: ["Search engine", "Friend's recommendation", "Social media", "App store", "Advertisement", "Other"][
      i
    ] as string,
    sort: i + 1,
  })),
];

/** level 0 is top level; children carry their parent's id. */
export const feedbackCategories = [
  { id: 1, name: "功能建议", nameEn: "Feature suggestion", parentId: 0, level: 0, sort: 1 },
  { id: 2, name: "问题反馈", nameEn: "Problem report", parentId: 0, level: 0, sort: 2 },
  { id: 3, name: "账号与支付", nameEn: "Account and payment", parentId: 0, level: 0, sort: 3 },
  { id: 4, name: "其他", nameEn: "Other", parentId: 0, level: 0, sort: 4 },
  { id: 21, name: "转写不准确", nameEn: "Inaccurate transcript", parentId: 2, level: 1, sort: 1 },
  { id: 22, name: "上传失败", nameEn: "Upload failed", parentId: 2, level: 1, sort: 2 },
  { id: 23, name: "转写失败或过慢", nameEn: "Transcription failed or slow", parentId: 2, level: 1, sort: 3 },
  { id: 24, name: "文字转语音", nameEn: "Text to speech", parentId: 2, level: 1, sort: 4 },
  { id: 31, name: "登录问题", nameEn: "Sign-in problem", parentId: 3, level: 1, sort: 1 },
  { id: 32, name: "支付问题", nameEn: "Payment problem", parentId: 3, level: 1, sort: 2 },
];

export const helpDocuments = [
  {
    slug: "getting-started",
    title: "如何把录音转成文字",
    titleEn: "How to turn a recording into text",
    content:
      "1. 登录后进入「音视频转文字」。\n2. 上传音频或视频文件，或直接在浏览器中录音。\n3. 选择语言和说话人数，点击开始转写。\n4. 转写完成后在「我的记录」中打开文稿，可编辑、修改说话人并导出。",
    contentEn:
      "1. Sign in and open “Audio/video to text”.\n2. Upload an audio or video file, or record in the browser.\n3. Choose the language and the number of speakers, then start.\n4. When it is done, open the transcript from “My records” to edit it, rename speakers and export.",
  },
  {
    slug: "formats",
    title: "支持哪些文件格式",
    titleEn: "Supported file formats",
    content:
      "支持 wav、mp3、m4a、aac、mp4、3gp、mkv、flv、mov、wmv、mxf、avi、amr、wma、m4s，以及浏览器录音和语音消息常用的 webm、weba、ogg、oga、opus 和无损的 flac、aiff、caf，单个文件不超过 1GB、时长不超过 5 小时；单次转写支持 3 小时以内的音频。",
    contentEn:
      "wav, mp3, m4a, aac, mp4, 3gp, mkv, flv, mov, wmv, mxf, avi, amr, wma and m4s are supported, and the webm, weba, ogg, oga and opus of browser recordings and voice notes, and lossless flac, aiff and caf; up to 1 GB and 5 hours per file; one transcription handles audio shorter than 3 hours.",
  },
  {
    slug: "quota",
    title: "时长与额度说明",
    titleEn: "Time and quotas",
    content:
      "转写会消耗时长卡中的时长，优先使用最先到期的时长卡；每日转写时长有上限，次日 0 点恢复。转写失败的时长会自动退回。",
    contentEn:
      "Transcription uses time from your duration cards, the card that expires first going first; there is a daily transcription cap that resets at midnight. Time used by a failed transcription is given back automatically.",
  },
  {
    slug: "membership",
    title: "会员与时长卡",
    titleEn: "Membership and duration cards",
    content:
      "会员享受签到双倍奖励等权益；购买的时长卡有效期 1 年，悦豆兑换的时长卡有效期 3 个月。虚拟商品购买后不支持退款。",
    contentEn:
      "Members get a double check-in reward and more; bought duration cards are valid for 1 year, bean-exchanged cards for 3 months. Purchases are non-refundable.",
  },
  {
    slug: "beans",
    title: "什么是悦豆",
    titleEn: "What are beans",
    content: "悦豆可通过每日签到、完成任务和兑换礼包码获得，可在商城兑换时长卡。悦豆不可购买、不会过期、不可提现。",
    contentEn:
      "Beans are earned by daily check-in, tasks and gift codes, and can be exchanged for duration cards in the shop. Beans cannot be bought, never expire and cannot be withdrawn.",
  },
  {
    slug: "privacy",
    title: "隐私政策",
    titleEn: "Privacy policy",
    content:
      "悦录只为提供服务而处理你的数据：手机号用于登录，上传的音视频和转写文稿只属于你，仅你本人可见。\n自部署的悦录把数据保存在运营者自己的服务器上，不会发送给第三方；语音识别在服务器本地完成。\n注销账号后，宽限期结束时你的个人数据会被删除。",
    contentEn:
      "Yuelu processes your data only to provide the service: your phone number signs you in, and your uploads and transcripts are yours alone, visible only to you.\nA self-hosted Yuelu keeps data on its operator's own servers and sends it to no third party; speech recognition runs on the server itself.\nWhen you delete your account, your personal data is removed at the end of the grace period.",
  },
  {
    slug: "agreement",
    title: "用户协议",
    titleEn: "User agreement",
    content:
      "使用悦录即表示你同意合法使用本服务，只上传你有权处理的内容。\n会员与时长卡为虚拟商品，购买后不支持退款；悦豆不可购买、不会过期、不可提现。\n我们会尽力保证服务可用，但不对因不可抗力造成的中断负责。",
    contentEn:
      "By using Yuelu you agree to use it lawfully and to upload only content you have the right to process.\nMemberships and duration cards are virtual goods and non-refundable; beans cannot be bought, never expire and cannot be withdrawn.\nWe do our best to keep the service available but are not liable for interruptions beyond our control.",
  },
].map((d, i) => ({ ...d, sort: i + 1 }));

export const banners = [
  { id: 1, image: "/static/banners/welcome.png", link: "/vip", title: "开通会员，转写更自由", sort: 1 },
];

export const indexLinks = [
  { id: 1, type: 1, name: "隐私政策", nameEn: "Privacy policy", url: "/helpDocument?doc=privacy", sort: 1 },
  { id: 2, type: 1, name: "用户协议", nameEn: "User agreement", url: "/helpDocument?doc=agreement", sort: 2 },
  { id: 3, type: 1, name: "帮助中心", nameEn: "Help center", url: "/helpDocument", sort: 3 },
  { id: 4, type: 1, name: "会员协议", nameEn: "Membership agreement", url: "/helpDocument?doc=membership", sort: 4 },
];

export const appSettings = [
  // Names this installation's job queues, so two databases sharing one Redis (or a database reset
  // under a kept Redis) never mistake each other's job ids. Random once; re-seeding keeps it.
  { key: "instance_id", value: randomUUID() },
  // The welcome gifts of a new account (apps/api/src/modules/account/welcome.ts): the new-user card
  // (3 h), the invitation card (5 h) and the 30-day membership ('black card'), which can be switched off.
  {
    key: "welcome_gifts",
    value: { newUserSeconds: 3 * HOUR, inviteSeconds: 5 * HOUR, blackCardDays: 30, blackCardEnabled: true },
  },
  // The limited-time offer shown by /api/v1/limit/time/get_limit; disabled until an operator sets it.
  {
    key: "limited_offer",
    value: { enabled: false, goodsId: 9, endTime: 0, title: "限时优惠", titleEn: "Limited-time offer" },
  },
];
