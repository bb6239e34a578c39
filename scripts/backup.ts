// `npm run backup -- --out FILE [--include-s3]`: a consistent backup of the install that DATA_DIR /
// DATABASE_URL / FILE_STORE describe, taken while the server runs (or not). README "Backups and
// restores"; the format is docs/backups.md. Exits 1 with the reason when it cannot.
import { parseArgs } from "node:util";
import { createBackup, loadConfig } from "@yuelu/runtime";

const { values } = parseArgs({
  options: { out: { type: "string" }, "include-s3": { type: "boolean", default: false } },
});
if (!values.out) {
  console.error("usage: npm run backup -- --out FILE [--include-s3]");
  process.exit(2);
}
try {
  const report = await createBackup(loadConfig(), {
    out: values.out,
    includeS3: values["include-s3"],
    log: (msg) => console.error(`[backup] ${msg}`),
  });
  const { totals, external } = report.manifest;
  console.log(
    `backup written: ${report.file} (${totals.tables} tables, ${totals.rows} rows, ${totals.files} files, ` +
      `${totals.fileBytes} bytes of files${external ? `; files left in S3 bucket ${external.bucket}` : ""})`,
  );
} catch (error) {
  console.error(`backup failed: ${(error as Error).message}`);
  process.exit(1);
}
