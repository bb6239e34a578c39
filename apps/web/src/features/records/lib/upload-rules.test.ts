import { MAX_TRANSCRIBE_SECONDS, MAX_UPLOAD_SECONDS, UPLOAD_EXTENSIONS } from "@yuelu/contracts/constants";
import { describe, expect, it } from "vitest";
import { extensionOf } from "@/utils/file-name.ts";
import { checkDuration, checkUpload, newUploadId, tooLongToTranscribe, UPLOAD_ACCEPT } from "./upload-rules.ts";

describe("upload rules (spec §5)", () => {
  it("accept the contracts' 23 extensions, in any case", () => {
    expect(UPLOAD_ACCEPT.split(",")).toHaveLength(23);
    for (const ext of UPLOAD_EXTENSIONS) expect(checkUpload({ name: `a.${ext.toUpperCase()}`, size: 1 })).toBeNull();
  });

  it("refuse other extensions, no extension, webm", () => {
    expect(checkUpload({ name: "a.exe", size: 1 })).toBe("badExtension");
    expect(checkUpload({ name: "mp3", size: 1 })).toBe("badExtension");
    expect(checkUpload({ name: "rec.ogx", size: 1 })).toBe("badExtension");
    expect(checkUpload({ name: "a.mp3.txt", size: 1 })).toBe("badExtension");
  });

  it("refuse more than 1 GiB (1073741824 bytes) and empty files", () => {
    expect(checkUpload({ name: "a.wav", size: 1_073_741_824 })).toBeNull();
    expect(checkUpload({ name: "a.wav", size: 1_073_741_825 })).toBe("tooLarge");
    expect(checkUpload({ name: "a.wav", size: 0 })).toBe("emptyFile");
  });

  it("refuse a file over 5 hours before uploading it, when its length is known", () => {
    expect(MAX_UPLOAD_SECONDS).toBe(5 * 3600);
    expect(checkDuration(5 * 3600, { keepLong: true })).toBeNull();
    expect(checkDuration(5 * 3600 + 1)).toBe("tooLong");
    expect(checkDuration(5 * 3600 + 1, { keepLong: true })).toBe("tooLong");
    expect(checkDuration(null)).toBeNull();
  });

  it("refuse a file over 3 hours before uploading it (issue 43), unless the user keeps it knowingly", () => {
    expect(checkDuration(3 * 3600)).toBeNull();
    expect(checkDuration(3 * 3600 + 600)).toBe("overTranscribeLimit");
    expect(checkDuration(3 * 3600 + 600, { keepLong: true })).toBeNull();
  });

  it("tell a file over 3 hours cannot be transcribed (it may still be uploaded)", () => {
    expect(MAX_TRANSCRIBE_SECONDS).toBe(3 * 3600);
    expect(tooLongToTranscribe(3 * 3600)).toBe(false);
    expect(tooLongToTranscribe(3 * 3600 + 1)).toBe(true);
    expect(tooLongToTranscribe(null)).toBe(false);
    expect(tooLongToTranscribe(undefined)).toBe(false);
  });

  it("read extensions", () => {
    expect(extensionOf("周会.Final.M4A")).toBe("m4a");
    expect(extensionOf(".hidden")).toBe("");
    expect(extensionOf("trailing.")).toBe("");
  });

  it("make upload ids the server accepts (8–64 of [A-Za-z0-9_-])", () => {
    const id = newUploadId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(newUploadId()).not.toBe(id);
  });
});
