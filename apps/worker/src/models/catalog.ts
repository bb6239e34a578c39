/**
 * The speech models a worker can fetch by itself (ASR_AUTO_FETCH) or an operator with
 * `npm run models:fetch -- <id>`. Files come from the first model source that serves them
 * (sources.ts: the Hugging Face hub, hf-mirror.com, ModelScope…), each checked against the checksum
 * pinned here when we have one — whichever source served it — else against the one a hub publishes
 * (download.ts).
 */

export interface ModelFile {
  /** the file's name in the hub repository (and on disk) */
  name: string;
  /** whisper.cpp publishes SHA-1s of its ggml models */
  sha1?: string;
  sha256?: string;
}

export interface ModelSpec {
  id: string;
  engine: "whisper" | "sherpa";
  /** Hugging Face repository, "owner/name" (also the path on its mirrors) */
  repo: string;
  /** the ModelScope repository ("owner/name") holding the same files, where one is known */
  modelscope?: string;
  files: ModelFile[];
  /** folder under the models directory ("" = the directory itself) */
  dir: string;
  /** what it is, for the operator */
  summary: string;
}

/** whisper.cpp's ggml models with the SHA-1s whisper.cpp publishes (models/download-ggml-model.sh). */
const WHISPER_SHA1: Record<string, string | undefined> = {
  tiny: "bd577a113a864445d4c299885e0cb97d4ba92b5f",
  "tiny.en": "c78c86eb1a8faa21b369bcd33207cc90d64ae9df",
  base: "465707469ff3a37a2b9b8d8f89f2f99de7299dac",
  "base.en": "137c40403d78fd54d454da0f9bd998f78703390c",
  small: "55356645c2b361a969dfd0ef2c5a50d530afd8d5",
  "small.en": "db8a495a91d927739e50b3fc1cc4c6b8f6c2d022",
  medium: "fd9727b6e1217c2f614f9b698455c4ffd82463b4",
  "medium.en": "8c30f0e44ce9560643ebd10bbe50cd20eafd3723",
  "large-v2": "0f4c8e34f21cf1a914c59d8b3ce882345ad349d6",
  "large-v3": "ad82bf6a9043ceed055076d0fd39f5f186ff8062",
  "large-v3-q5_0": "e6e2ed78495d403bef4b7cff42ef4aaadcfea8de",
  "large-v3-turbo": "4af2b29d7ec73d781377bfd1758ca957a807e941",
  "large-v3-turbo-q5_0": "e050f7970618a659205450ad97eb95a18d69c9ee",
  "tiny-q5_1": undefined,
  "base-q5_1": undefined,
  "small-q5_1": undefined,
  "large-v3-turbo-q8_0": undefined,
};

/**
 * A copy of whisper.cpp's ggml files on ModelScope, widely used from mainland China. It is not
 * whisper.cpp's own: the SHA-1s above are what make its files trustworthy, so a model without one is
 * never taken from there (only a Hugging Face–style hub's published checksums are trusted: sources.ts).
 */
const WHISPER_MODELSCOPE_REPO = "cjc1887415157/whisper.cpp";

export const WHISPER_MODELS: ModelSpec[] = Object.entries(WHISPER_SHA1).map(([size, sha1]) => ({
  id: size,
  engine: "whisper",
  repo: "ggerganov/whisper.cpp",
  modelscope: WHISPER_MODELSCOPE_REPO,
  files: [{ name: `ggml-${size}.bin`, sha1 }],
  dir: "",
  summary: `whisper.cpp ggml model "${size}"${size.endsWith(".en") ? " (English only)" : " (multilingual)"}`,
}));

/**
 * sherpa-onnx models (SenseVoice, Paraformer), as the k2-fsa project publishes them on the hub, with
 * the SHA-256s of their files: the LFS object ids of the hub's files (revision 2365baea of SenseVoice,
 * 906992d3 of Paraformer; model.int8.onnx 239,233,841 and 227,330,205 bytes), which ModelScope's
 * copies (pengzhendong/…) match byte for byte. A source serving anything else is skipped.
 */
export const SHERPA_MODELS: ModelSpec[] = [
  {
    id: "sense-voice",
    engine: "sherpa",
    repo: "csukuangfj/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17",
    modelscope: "pengzhendong/sherpa-onnx-sense-voice-zh-en-ja-ko-yue",
    files: [
      { name: "model.int8.onnx", sha256: "c71f0ce00bec95b07744e116345e33d8cbbe08cef896382cf907bf4b51a2cd51" },
      { name: "tokens.txt", sha256: "f449eb28dc567533d7fa59be34e2abca8784f771850c78a47fb731a31429a1dc" },
    ],
    dir: "sherpa-sense-voice",
    summary: "SenseVoice small (int8): Chinese, English, Japanese, Korean, Cantonese, with language identification",
  },
  {
    id: "paraformer-zh",
    engine: "sherpa",
    repo: "csukuangfj/sherpa-onnx-paraformer-zh-2024-03-09",
    modelscope: "pengzhendong/sherpa-onnx-paraformer-zh",
    files: [
      { name: "model.int8.onnx", sha256: "90bc03034ae1bef9575f8cc798cd1519c8be8aa9e8b458a033e32017ff4d584c" },
      { name: "tokens.txt", sha256: "6c0e3b35cece259829e6cb5b8d90d13db88f61ea3a2953d11898e4b2bfd7a2e2" },
    ],
    dir: "sherpa-paraformer-zh",
    summary: "Paraformer large (int8): Mandarin (and English words within it)",
  },
];

export const MODELS: ModelSpec[] = [...WHISPER_MODELS, ...SHERPA_MODELS];

export function modelById(id: string): ModelSpec | undefined {
  return MODELS.find((m) => m.id === id);
}
