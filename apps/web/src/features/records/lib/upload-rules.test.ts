import { UPLOAD_EXTENSIONS as CONTRACT_EXTENSIONS, MAX_UPLOAD_BYTES as CONTRACT_MAX } from "@yuelu/contracts";
import { describe, expect, it } from "vitest";
import {
  checkUpload,
  extensionOf,
  MAX_UPLOAD_BYTES,
  newUploadId,
  UPLOAD_ACCEPT,
  UPLOAD_EXTENSIONS,
} from "./upload-rules.ts";

describe("upload rules (spec §5)", () => {
  it("agree with the contracts package", () => {
    expect([...UPLOAD_EXTENSIONS]).toEqual([...CONTRACT_EXTENSIONS]);
    expect(MAX_UPLOAD_BYTES).toBe(CONTRACT_MAX);
    expect(UPLOAD_ACCEPT.split(",")).toHaveLength(15);
  });

  it("accepts the 15 extensions in any case", () => {
    for (const ext of UPLOAD_EXTENSIONS) expect(checkUpload({ name: `a.${ext.toUpperCase()}`, size: 1 })).toBeNull();
  });

  it("refuses other extensions, no extension, webm", () => {
    expect(checkUpload({ name: "a.exe", size: 1 })).toBe("badExtension");
    expect(checkUpload({ name: "mp3", size: 1 })).toBe("badExtension");
    expect(checkUpload({ name: "rec.webm", size: 1 })).toBe("badExtension");
    expect(checkUpload({ name: "a.mp3.txt", size: 1 })).toBe("badExtension");
  });

  it("refuses more than 1 GiB (1073741824 bytes) and empty files", () => {
    expect(checkUpload({ name: "a.wav", size: 1_073_741_824 })).toBeNull();
    expect(checkUpload({ name: "a.wav", size: 1_073_741_825 })).toBe("tooLarge");
    expect(checkUpload({ name: "a.wav", size: 0 })).toBe("emptyFile");
  });

  it("reads extensions", () => {
    expect(extensionOf("周会.Final.M4A")).toBe("m4a");
    expect(extensionOf(".hidden")).toBe("");
    expect(extensionOf("trailing.")).toBe("");
  });

  it("makes upload ids the server accepts (8–64 of [A-Za-z0-9_-])", () => {
    const id = newUploadId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(newUploadId()).not.toBe(id);
  });
});
