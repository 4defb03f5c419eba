import { createWriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { createAuth } from "../app/adapters/auth/auth.server.ts";
import { createFileStore } from "../app/adapters/files/file-store.server.ts";
import { createDatabase } from "../app/db/database.server.ts";
import { migrateToLatest } from "../app/db/migrate.server.ts";
import { seedDemoCatalog } from "../app/db/seed/seed.server.ts";
import { generateSyntheticCatalog } from "../app/db/seed/synthetic-catalog.ts";
import { generateSyntheticOrders } from "../app/db/seed/synthetic-orders.ts";
import { createOrUpdateUser } from "../app/domain/accounts/users.server.ts";
import { exportProductsCsv, importProductsCsv } from "../app/domain/catalog/admin/products-csv.server.ts";
import { checkStockLedger } from "../app/domain/inventory/stock-ledger.server.ts";
import { readShopSettings } from "../app/domain/settings/shop-settings.server.ts";
import { ConfigError, parseEnv } from "../app/env.server.ts";
import { DEFAULT_SHOP_SETTINGS } from "../app/lib/shop-settings.ts";
import type { Role } from "../app/lib/staff-roles.ts";
import { BACKUP_USAGE, backupCommand, restoreCommand } from "./backup-commands.ts";
import { printChecks, runDoctor } from "./doctor.ts";

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  migrate                           apply pending database migrations
  seed                              add the demo catalogue (idempotent)
  catalog:generate --count N        add N synthetic products for benchmarks
                   [--seed S] [--batch B]
  orders:generate --count N         add N synthetic paid orders over the last 365 days (dashboard benchmarks)
  user:create --email E --password P --role owner|admin|staff|customer [--name N]
                                    create a user, or set an existing user's password and role
  products:export [FILE]            write the catalogue as CSV to FILE (or to standard output)
  products:import FILE              create or update products from a CSV (by id, else by slug);
                                    all rows are checked first, and nothing changes if one is wrong
  inventory:check                   compare every variant's stock with its stock ledger and every
                                    product's summed stock with its variants; exit 1 on any drift
  doctor                            check the configuration, the database and its migrations, free
                                    disk, mail, file store and payment credentials; exit 1 on a problem
${BACKUP_USAGE}

Configuration comes from the environment (DATABASE_URL, FILE_STORE_URL, ...), as for the server.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help") {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  // before anything opens or migrates: the doctor reports what it finds and changes nothing
  if (command === "doctor") return printChecks(await runDoctor(process.env));
  const env = parseEnv({ ...process.env, CARTWHEEL_LOCAL: "true" });
  if (command === "backup") return backupCommand(env, rest);
  if (command === "restore") return restoreCommand(env, rest);
  const db = createDatabase(env.DATABASE_URL);
  try {
    await migrateToLatest(db);
    switch (command) {
      case "migrate":
        console.log("Database is up to date.");
        return 0;
      case "inventory:check": {
        const drift = await checkStockLedger(db);
        for (const row of drift.variants) {
          console.log(
            row.stock === null
              ? `variant ${row.variantId} (deleted): its movements add up to ${row.ledger}, not 0`
              : `variant ${row.variantId}: stock ${row.stock}, ledger ${row.ledger} (drift ${row.stock - row.ledger})`,
          );
        }
        for (const row of drift.products) {
          console.log(
            `product ${row.productId}: summed stock ${row.stock}, its live variants hold ${row.variants}`,
          );
        }
        const problems = drift.variants.length + drift.products.length;
        console.log(
          problems === 0
            ? `Stock balances: every level equals its ledger (${drift.movements} movements).`
            : `${problems} ${problems === 1 ? "difference" : "differences"} between stock and the ledger.`,
        );
        return problems === 0 ? 0 : 1;
      }
      case "seed": {
        const { created } = await seedDemoCatalog(db, createFileStore(env.FILE_STORE_URL, env));
        console.log(created > 0 ? `Seeded ${created} demo products.` : "Demo catalogue already present.");
        return 0;
      }
      case "catalog:generate": {
        const { values } = parseArgs({
          args: rest,
          options: { count: { type: "string" }, seed: { type: "string" }, batch: { type: "string" } },
        });
        const count = Number(values.count);
        if (!Number.isInteger(count) || count < 1) {
          console.error("catalog:generate needs --count N (a positive whole number)");
          return 1;
        }
        const started = performance.now();
        const { created } = await generateSyntheticCatalog(db, createFileStore(env.FILE_STORE_URL, env), {
          count,
          seed: values.seed ? Number(values.seed) : undefined,
          batchSize: values.batch ? Number(values.batch) : undefined,
          onProgress: (done) => {
            if (done % 100_000 === 0 || done === count) process.stdout.write(`  ${done} / ${count}\n`);
          },
        });
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        console.log(`Generated ${created} products in ${seconds} s.`);
        return 0;
      }
      case "orders:generate": {
        const { values } = parseArgs({ args: rest, options: { count: { type: "string" } } });
        const count = Number(values.count);
        if (!Number.isInteger(count) || count < 1 || count > 10_000_000) {
          console.error("orders:generate needs --count N (1 to 10,000,000)");
          return 1;
        }
        const started = performance.now();
        await generateSyntheticOrders(db, { count });
        console.log(`Generated ${count} orders in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
        return 0;
      }
      case "user:create": {
        const { values } = parseArgs({
          args: rest,
          options: {
            email: { type: "string" },
            password: { type: "string" },
            role: { type: "string", default: "customer" },
            name: { type: "string" },
          },
        });
        const auth = createAuth({
          db,
          secret: env.SESSION_SECRET,
          baseURL: env.PUBLIC_URL,
          shopName: env.SHOP_NAME,
          sendResetPassword: async () => {},
        });
        const result = await createOrUpdateUser(
          { auth, db },
          {
            email: values.email ?? "",
            password: values.password ?? "",
            role: values.role as Role,
            name: values.name,
          },
        );
        if (!result.ok) {
          console.error(`user:create: ${result.error.problems.join("; ")}`);
          return 1;
        }
        const { created, email, role } = result.value;
        console.log(`${created ? "Created" : "Updated"} ${email} (role: ${role}).`);
        return 0;
      }
      case "products:export": {
        const [file, ...extra] = rest;
        if (extra.length > 0) {
          console.error("products:export takes at most one argument: the file to write");
          return 1;
        }
        const rows = Readable.from(exportProductsCsv(db, await shopCurrency(db)));
        if (!file || file === "-") {
          await pipeline(rows, process.stdout, { end: false });
          return 0;
        }
        await pipeline(rows, createWriteStream(file));
        console.log(`Exported the catalogue to ${file}.`);
        return 0;
      }
      case "products:import": {
        const [file, ...extra] = rest;
        if (!file || extra.length > 0) {
          console.error("products:import needs exactly one argument: the CSV file to read");
          return 1;
        }
        let text: string;
        try {
          text = await readFile(file, "utf8");
        } catch (error) {
          console.error(`products:import: cannot read ${file}: ${(error as Error).message}`);
          return 1;
        }
        const result = await importProductsCsv(db, { currency: await shopCurrency(db) }, text);
        if (!result.ok) {
          const { problems } = result.error;
          for (const { line, message } of problems) console.error(`${file}:${line}: ${message}`);
          const count = problems.length;
          console.error(`Nothing was imported: ${count} problem${count === 1 ? "" : "s"} to fix.`);
          return 1;
        }
        console.log(
          `Imported ${file}: ${result.value.created} created, ${result.value.updated} updated, ${result.value.unchanged} unchanged.`,
        );
        return 0;
      }
      default:
        console.error(`Unknown command: ${command}\n\n${USAGE}`);
        return 1;
    }
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);

/** The currency the shop's amounts are in (its settings; US dollars until the owner saves them). */
async function shopCurrency(db: ReturnType<typeof createDatabase>) {
  return (await readShopSettings(db, DEFAULT_SHOP_SETTINGS)).currency;
}
