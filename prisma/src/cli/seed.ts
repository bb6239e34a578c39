import { createDb } from "../client.ts";
import { seedCatalogue } from "../seed/index.ts";
import { requireDatabaseUrl } from "./database-url.ts";

const db = createDb(requireDatabaseUrl(), { poolSize: 1 });
try {
  await seedCatalogue(db);
  console.log("catalogue seeded");
} finally {
  await db.$disconnect();
}
