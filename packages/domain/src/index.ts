// API keys (docs/integrators.md)
export { API_KEY_PREFIX, apiKeyHash, createApiKey, listApiKeys, revokeApiKey } from "./account/api-keys.ts";
export { avatarExtension, avatarKey, avatarUrl, uploadedAvatarKey } from "./account/avatar.ts";
export { cancelDeletion, deletionDue, deletionStatus, requestDeletion } from "./account/deletion.ts";
export { setPasswordHash, updateProfile, updateSurvey } from "./account/profile.ts";
export { accountsDueForPurge, purgeAccount } from "./account/purge.ts";
export { accountForPasswordSignIn, defaultNickName, findOrCreateAccount } from "./account/sign-up.ts";
// operator console (docs/admin.md)
export { type AdminActor, type AuditEntry, audit, auditLog, CLI_ACTOR } from "./admin/audit.ts";
// admin: catalogue, gifts, messages, content
export {
  adminPayGoods,
  adminPayGoodsList,
  adminShopGoods,
  adminShopGoodsList,
  createPayGoods,
  createShopGoods,
  editPayGoods,
  editShopGoods,
  reorderPayGoods,
  reorderShopGoods,
} from "./admin/catalogue.ts";
export {
  createHelpDoc,
  deleteHelpDoc,
  editHelpDoc,
  feedbackImageKey,
  feedbackImagePath,
  feedbackItem,
  feedbackList,
  helpDoc,
  helpDocs,
  markFeedbackHandled,
  replyFeedback,
} from "./admin/content.ts";
// admin: users, orders, system
export { dailyFigures, FIGURES_MAX_DAYS } from "./admin/figures.ts";
export {
  createGiftBatch,
  csvCell,
  disableGiftBatch,
  disableGiftCode,
  giftBatchCsv,
  giftBatches,
  giftCodes,
  giftExpiry,
  giftKindOf,
  giftRedemptions,
} from "./admin/gifts.ts";
export { ADMIN_GRANT_LEDGER_REASON, grantToUser } from "./admin/grants.ts";
export { sendAdminMessage, sentMessages } from "./admin/messages.ts";
export { adminOrderDetail, adminOrders, auditRequery, isRefundable, refundOrder } from "./admin/orders.ts";
export { type Role, setRole } from "./admin/roles.ts";
export { storageByUser, storageOfUser } from "./admin/storage.ts";
export { auditJobAction, engineOverview, MODELS_FETCH_COMMAND, MODELS_LIST_COMMAND } from "./admin/system.ts";
export { adminBeanLedger, adminUserDetail, adminUsers, setUserDisabled } from "./admin/users.ts";
// clips cut by selecting words (docs/clips.md)
export * from "./clips/clips.ts";
export { isMembership, listPayGoods, payGoodsView, sellableGoods } from "./commerce/catalogue.ts";
export { alipayAmount, parseAlipayAmount, priceLabel, yuan } from "./commerce/money.ts";
export {
  claimProviderQuery,
  closeExpiredOrders,
  closeIfDue,
  createOrder,
  expireIfDue,
  noteProviderState,
  OPEN_TRADE_STATES,
  orderNumberOf,
  ownOrder,
  PaymentMismatch,
  type PaymentReport,
  providerOrderNumber,
  reopenOrder,
  savePayUrl,
  settleOrder,
} from "./commerce/orders.ts";
export { checkout, isSettled, latestOpenOrder, orderList, orderView } from "./commerce/views.ts";
export { type Clock, type DomainConfig, type DomainContext, systemClock } from "./context.ts";
export { AppError } from "./errors.ts";
// live captions' sessions and metering (docs/live.md "Metering")
export {
  admitLiveSession,
  endLiveSession,
  LIVE_SESSION_STALE_MS,
  LIVE_SESSION_TOUCH_MS,
  type LiveAdmission,
  type LiveEndReason,
  markLiveSessionWaiting,
  resumeLiveSession,
  touchLiveSessions,
} from "./live/sessions.ts";
export { type Broadcast, broadcast, messageList, readAllMessages, readMessage, unreadCount } from "./messages/inbox.ts";
export { type NoticeItem, type NoticeKind, sendNotice } from "./messages/notices.ts";
export { sendUserMessage, type UserMessage } from "./messages/send.ts";
// AI notes with an LLM (docs/notes.md)
export { llmBudget, llmBudgetTerms, llmDailyLimit, reserveLlmTokens, settleNoteTask } from "./notes/budget.ts";
export { type ChapterSegment, chapterStarts, offlineChapters } from "./notes/chapters.ts";
export {
  chunkSegments,
  estimateNoteTokens,
  PROMPT_TOKENS,
  pieceTokens,
  segmentLineTokens,
} from "./notes/chunks.ts";
export { findPassages, PASSAGES_DEFAULT, questionTerms } from "./notes/passages.ts";
export { summarize } from "./notes/summary.ts";
export {
  assertLlmConfigured,
  cancelNoteTask,
  claimNoteTask,
  completeNoteTask,
  createNoteTask,
  failNoteTask,
  failStuckNoteTasks,
  latestDoneNote,
  type NewNoteTask,
  NOTE_RUN_LIMIT_MS,
  type NoteTaskFailure,
  notesOfRecord,
  noteTaskView,
  ownNoteTask,
  ownTranscriptForNotes,
  reportNoteProgress,
  retryNoteTask,
  segmentsHash,
} from "./notes/tasks.ts";
export { MAX_ACTION_ITEMS, offlineActionItems } from "./notes/todos.ts";
// people: speakers recognised across recordings (docs/people.md)
export {
  confirmSuggestion,
  forgetPerson,
  isSpeakerLabel,
  knownVoices,
  listPeople,
  type PersonView,
  renamePerson,
  setRemembering,
} from "./people/people.ts";
export type { SpeakerVoice } from "./people/prints.ts";
export {
  acceptUpload,
  earlierUpload,
  type MeasuredUpload,
  secondsOf,
  UPLOAD_MAX_SECONDS,
} from "./records/accept.ts";
export { deleteRecordsForever } from "./records/delete-forever.ts";
export {
  editParagraph,
  type LockedTranscript,
  lockTranscript,
  type ParaEdit,
  type ParaEdited,
  replaceSegments,
  sameSpeaker,
  saveAbstracts,
  type Written,
} from "./records/edits.ts";
export {
  assertOwnFolder,
  binnedOf,
  binRecords,
  createFolder,
  deleteFolder,
  type Folder,
  moveRecords,
  recordListOrder,
  renameFolder,
  renameRecord,
  restoreRecords,
  visibleRecord,
  visibleRecords,
  visibleTo,
} from "./records/library.ts";
export { renamedFileName, safeFileName, type UploadExtension, uploadExtension } from "./records/names.ts";
export { chargedSeconds, type TranscriptionRefusal, transcriptionRefusal } from "./records/refusal.ts";
export { segmentsOf } from "./records/segments.ts";
export {
  holdStorage,
  releaseStorage,
  removeExpiredStorageHolds,
  StorageFull,
  type StorageHoldInput,
  storageUsed,
} from "./records/storage.ts";
export { type TranscriptFields, type TranscriptWrite, writeTranscript } from "./records/transcript.ts";
export { CHECKIN_LEDGER_REASON, MEMBER_TIMES, SIGN_REWARD_BEANS, sign, signInfo } from "./rewards/checkin.ts";
export { createGiftCodes, type GiftBatch, redeemGiftCode } from "./rewards/gift-codes.ts";
export { purchaseGoods, shopGoods, unitCost } from "./rewards/shop.ts";
export { advanceTasks, countTaskEvent } from "./rewards/task-progress.ts";
export { periodOf, receiveReward, rewardText, taskList } from "./rewards/tasks.ts";
export { grantWelcomeGifts, WELCOME_GIFTS_KEY, welcomeGiftsSetting } from "./rewards/welcome-gifts.ts";
// search (docs/search.md)
export * from "./search/index.ts";
// share links (docs/share.md)
export {
  checkSharePassword,
  countShareView,
  createShareLink,
  defaultShareLink,
  isShareToken,
  listShareLinks,
  type NewShareLink,
  resolveShareToken,
  revokeShareLink,
  type SharedRecord,
  type ShareRefusal,
  type ShareResolution,
  type ShareUrlOf,
  shareLinkView,
} from "./share/links.ts";
export { hashSharePassword, verifySharePassword } from "./share/password.ts";
export type { JobLookup } from "./tasks/stuck.ts";
export { OPEN_TASK_STATES, TASK_MOVES, type TaskMove, TaskState, taskColumns } from "./tasks/task-state.ts";
export { addSeconds, type BusinessMonth, businessDay, businessMonth, SECONDS } from "./time.ts";
export { type AfterCommit, TX_OPTIONS, type Tx, transact, userChanged } from "./transaction.ts";
export {
  type ClaimedTask,
  claimTask,
  completeTask,
  failTask,
  reportTaskProgress,
  retryTask,
  saveTaskCheckpoint,
  type TaskFailure,
} from "./transcription/lifecycle.ts";
export { partialTranscript } from "./transcription/partial.ts";
export { type EnqueueTranscription, type FileOutcome, requestTranscriptions } from "./transcription/request.ts";
export { failStuckTranscriptions } from "./transcription/stuck.ts";
export {
  type ClaimedTtsTask,
  claimTtsTask,
  completeTtsTask,
  failTtsTask,
  reportTtsProgress,
  retryTtsTask,
  type TtsOutput,
  type TtsTaskFailure,
} from "./tts/lifecycle.ts";
export { chargeTts, refundTts, TtsChargeRefused, ttsDailyLimit, ttsDailyLimitOf, ttsQuota } from "./tts/quota.ts";
export { defaultTitle, type EnqueueSynthesis, requestSynthesis, type SynthesisRequest } from "./tts/request.ts";
export { failStuckTtsTasks, ttsRunLimitMs } from "./tts/stuck.ts";
export { TTS_OPEN_STATES } from "./tts/task-state.ts";
export {
  findVoice,
  type LibraryVoice,
  libraryVoices,
  sampleKey,
  sampleVersion,
  type VoiceFilter,
} from "./tts/voices.ts";
export { deleteTtsTasks, listTtsTasks, ownTtsTask, ownTtsTasks, renameTtsTask } from "./tts/works.ts";
export {
  claimVoiceTask,
  completeVoiceTask,
  failVoiceTask,
  refundVoiceTask,
  reportVoiceProgress,
  retryVoiceTask,
  VOICE_FAILURE_CODE,
  type VoiceTaskFailure,
} from "./voice/lifecycle.ts";
export { type Melody, type MelodyNote, transpose } from "./voice/melody.ts";
export {
  MIDI_MAX_ACCOMPANIMENT_NOTES,
  MIDI_MAX_MELODY_NOTES,
  MIDI_MAX_SECONDS,
  MidiProblem,
  tuneFromMidi,
} from "./voice/midi.ts";
export {
  createMyVoice,
  deleteMyVoice,
  listMyVoices,
  ownMyVoice,
  ownMyVoices,
  readyMyVoice,
  renameMyVoice,
  retrainMyVoice,
  type VoiceSampleInput,
} from "./voice/my-voices.ts";
export { chargeVoiceDay, voiceDailyLimit, voiceQuota } from "./voice/quota.ts";
export { failStuckVoiceTasks, VOICE_RUN_LIMIT_MS } from "./voice/stuck.ts";
export type { VoiceTaskKind } from "./voice/task-state.ts";
export {
  createVoiceWork,
  deleteVoiceWorks,
  listVoiceWorks,
  type NewVoiceWork,
  ownVoiceWork,
  ownVoiceWorks,
  renameVoiceWork,
} from "./voice/works.ts";
export { beanDetail, beanReasonName } from "./wallet/bean-detail.ts";
export { cardSourceName, durationCards, durationDetail } from "./wallet/cards.ts";
export { grantBeans, type Posting, spendBeans } from "./wallet/ledger.ts";
export {
  chargeLiveBlock,
  claimLiveCredit,
  LIVE_BLOCK_SECONDS,
  type LiveCharge,
  liveSessionIdsOf,
} from "./wallet/live-charge.ts";
export { extendMembership, isMemberAt } from "./wallet/membership.ts";
export { assetsOf, dailyLimit, dailyLimitOf, storageInfo, ZERO_STORAGE } from "./wallet/quota.ts";
export { CARD_VALIDITY, grantTimeCard, type TimeCardGrant } from "./wallet/time-cards.ts";
export { ChargeRefused, chargeTranscription, refundTranscription } from "./wallet/transcription-charge.ts";
// webhooks (docs/integrators.md)
export * from "./webhooks/index.ts";
