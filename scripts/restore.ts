// `npm run restore -- FILE`: restores a backup of `npm run backup` into an empty DATA_DIR (embedded
// database) or an empty DATABASE_URL database; checks every checksum first and never overwrites
// anything. Then start the install as usual (`npm start`). README "Backups and restores".
import { parseArgs } from "node:util";
import { loadConfig, restoreBackup } from "@yuelu/runtime";

const { positionals } = parseArgs({ allowPositionals: true, options: {} });
const file = positionals[0];
if (!file || positionals.length !== 1) {
  console.error("usage: npm run restore -- FILE");
  process.exit(2);
}
try {
  const report = await restoreBackup(loadConfig(), file, (msg) => console.error(`[restore] ${msg}`));
  const { totals, created } = report.manifest;
  console.log(
    `restored the backup of ${created} into ${report.dataDir}: ${totals.tables} tables, ${totals.rows} rows, ${totals.files} files`,
  );
} catch (error) {
  console.error(`restore failed: ${(error as Error).message}`);
  process.exit(1);
}
