import { z } from "zod";

/**
 * manifest.json, the last entry of a backup archive (docs/backups.md describes the whole format).
 * Every other entry of the archive is listed here with its size and SHA-256; restore checks them
 * all before it writes anything.
 */
export const BACKUP_FORMAT = "yuelu-backup";
export const BACKUP_VERSION = 1;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const ArchivedFileSchema = z.object({
  /** the file-store key ("media/12/<uuid>.mp3"); the archive entry is files/<key> */
  key: z.string().min(1),
  size: z.number().int().min(0),
  sha256: Sha256,
});

export const BackupManifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_VERSION),
  /** ISO time of the database snapshot */
  created: z.string(),
  appVersion: z.string(),
  database: z.object({
    /** embedded: PGlite's dumpDataDir (gzipped tar); postgres: pg_dump's custom format */
    kind: z.enum(["embedded", "postgres"]),
    entry: z.string(),
    size: z.number().int().min(0),
    sha256: Sha256,
    /** "schema.table" → rows in the snapshot */
    rowCounts: z.record(z.string(), z.number().int().min(0)),
  }),
  /** the files copied into the archive (the local store, or S3 with --include-s3) */
  files: z.array(ArchivedFileSchema),
  /** files left where they are (an S3 store backed up without --include-s3): back them up yourself */
  external: z.object({ kind: z.literal("s3"), bucket: z.string(), endpoint: z.string().nullable() }).nullable(),
  /** DATA_DIR/cookie-secret (sessions stay valid after a restore), when the install generated one */
  cookieSecret: ArchivedFileSchema.omit({ key: true }).extend({ entry: z.string() }).nullable(),
  totals: z.object({
    tables: z.number().int(),
    rows: z.number().int(),
    files: z.number().int(),
    fileBytes: z.number().int(),
  }),
});

export type BackupManifest = z.infer<typeof BackupManifestSchema>;

export const MANIFEST_ENTRY = "manifest.json";
export const fileEntry = (key: string) => `files/${key}`;
