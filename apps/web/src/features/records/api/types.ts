/** Response shapes of docs/records-api.md (spec §3 Audio record, Menu item). */
export interface AudioRecord {
  fileId: number;
  fileName: string;
  fileStatus: number;
  /** seconds */
  timeLen: number;
  /** epoch seconds */
  updateTime: number;
  format: string;
  /** bytes */
  fileSize: number;
  sampleRate: number;
  audioPath: string;
  /** 0–100 */
  progress: number;
  menuId: string | null;
  /** recycle bin only, epoch seconds */
  deleteTime?: number;
}

export interface RecordPage {
  total: number;
  records: AudioRecord[];
}

export interface MenuItem {
  menuId: string;
  menuName: string;
}

export interface UploadedRecord {
  fileId: number;
  fileName: string;
  timeLen: number;
  fileStatus: number;
  fileSize: number;
  format: string;
}

export interface ProgressItem {
  fileId: number;
  fileStatus: number;
  progress: number;
  taskId?: number | null;
  errorCode?: number;
  errorMsg?: string;
}

export interface LanguageOption {
  value: "zh" | "en" | "auto";
  label: string;
  available: boolean;
  engine?: string;
  /** what to install, when not available */
  missing?: string;
}

export interface DictationConfig {
  languages: LanguageOption[];
  maxSpeakers: number;
  maxSeconds: number;
}

export interface DictationOptions {
  language: LanguageOption["value"];
  /** 0 = automatic */
  speakerCount: number;
}
