import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { parseFileStoreUrl } from "./adapters/files/file-store-url.ts";

const urlOf = (schemes: string[], example: string) =>
  z
    .string()
    .trim()
    .refine((value) => schemes.some((s) => value.startsWith(s)), {
      message: `must start with ${schemes.join(" or ")} (for example ${example})`,
    });

function stripeKey(prefix: string, example: string) {
  return z
    .string()
    .trim()
    .refine((value) => value.startsWith(prefix) && value.length > prefix.length, {
      message: `must start with ${prefix} (for example ${example})`,
    })
    .optional();
}

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: urlOf(["file:", "postgres://", "postgresql://"], "file:./data/cartwheel.db").default(
    "file:./data/cartwheel.db",
  ),
  FILE_STORE_URL: urlOf(["file:", "s3://"], "file:./data/uploads")
    .superRefine((value, ctx) => {
      if (!value.startsWith("s3://")) return;
      try {
        parseFileStoreUrl(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
      }
    })
    .default("file:./data/uploads"),
  /** S3-compatible storage (FILE_STORE_URL=s3://bucket[/prefix]); endpoint unset means AWS S3 itself */
  S3_ENDPOINT: z
    .url({
      protocol: /^https?$/,
      error: "must be an http:// or https:// URL (for example http://127.0.0.1:9000)",
    })
    .optional(),
  S3_REGION: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{2,40}$/, "must be a region name such as us-east-1")
    .default("us-east-1"),
  /** both or neither; neither means the SDK's own chain (AWS_* variables, instance role) */
  S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().trim().min(1).optional(),
  /** true for most self-hosted servers (MinIO, Garage, SeaweedFS): bucket in the path, not the host */
  S3_FORCE_PATH_STYLE: z.enum(["true", "false"]).default("false"),
  MAIL_URL: urlOf(["file:", "smtp://", "smtps://"], "file:./data/mail").default("file:./data/mail"),
  DATA_DIR: z.string().trim().min(1).default("./data"),
  /** backups of a PostgreSQL shop (decision 028): pg_dump and pg_restore, else found on PATH */
  PG_DUMP_PATH: z.string().trim().min(1).optional(),
  PG_RESTORE_PATH: z.string().trim().min(1).optional(),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().trim().min(1).default("127.0.0.1"),
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SHOP_NAME: z.string().trim().min(1).default("Cartwheel"),
  CONTACT_EMAIL: z.email().default("hello@cartwheel.example"),
  CONTACT_PHONE: z.string().trim().min(3).default("+1 (555) 010-0199"),
  CONTACT_ADDRESS: z.string().trim().min(3).default("100 Market Street, Springfield, USA"),
  /** requests an API key may make a minute, counted across processes (decision 038) */
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /** webhooks may go to loopback and private addresses (development and tests only; decision 039) */
  WEBHOOKS_ALLOW_PRIVATE: z.enum(["true", "false"]).default("false"),
  /** behind a reverse proxy: take the client address from X-Forwarded-For */
  TRUST_PROXY: z.enum(["true", "false"]).default("false"),
  SEED_ON_EMPTY: z.enum(["true", "false"]).default("true"),
  /** on a local first start, also 90 days of demo orders, customers, returns and reviews (app/db/seed/demo-history.ts) */
  SEED_DEMO_HISTORY: z.enum(["true", "false"]).default("true"),
  /** "stripe" needs STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET */
  PAYMENT_GATEWAY: z.enum(["test", "stripe"]).default("test"),
  PAYMENT_DELAY_MS: z.coerce.number().int().min(0).max(60000).default(1000),
  /** how long an order awaiting its payment holds its stock (decision 020) */
  PAYMENT_RESERVATION_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(15),
  STRIPE_SECRET_KEY: stripeKey("sk_", "sk_test_…"),
  STRIPE_PUBLISHABLE_KEY: stripeKey("pk_", "pk_test_…"),
  STRIPE_WEBHOOK_SECRET: stripeKey("whsec_", "whsec_…"),
  /** another Stripe API address: a stripe-mock style server or the test server (api.stripe.com when unset) */
  STRIPE_API_URL: z
    .url({
      protocol: /^https?$/,
      error: "must be an http:// or https:// URL (for example http://127.0.0.1:12111)",
    })
    .optional(),
  /** /metrics (decision 027): with a token, requests must carry `Authorization: Bearer <token>` */
  METRICS_TOKEN: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._~+/-]{16,256}$/, "must be 16 to 256 letters, digits or . _ ~ + / -")
    .optional(),
  /** /metrics on a listener of its own (and then only there), on METRICS_HOST */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().trim().min(1).default("127.0.0.1"),
  /** traces over OTLP/HTTP to this collector (decision 027); unset: tracing is not loaded */
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url({
      protocol: /^https?$/,
      error: "must be an http:// or https:// URL (for example http://127.0.0.1:4318)",
    })
    .optional(),
});

/** The variables PAYMENT_GATEWAY=stripe cannot start without. */
const STRIPE_REQUIRED = ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"] as const;

/** Every variable the configuration reads (deploy/ files name only these: tests/integration/deployment.test.ts). */
export const ENV_VARIABLES: readonly string[] = [...Object.keys(envSchema.shape), "CARTWHEEL_LOCAL"];

export type Env = z.infer<typeof envSchema> & {
  SESSION_SECRET: string;
  PUBLIC_URL: string;
  /** a developer's or newcomer's machine (`npm start`, dev, tests), not a deployment */
  LOCAL: boolean;
};

export class ConfigError extends Error {}

/** Validates the environment once; a bad value stops the process with the variable's name. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    const [missing, given] = env.S3_ACCESS_KEY_ID
      ? ["S3_SECRET_ACCESS_KEY", "S3_ACCESS_KEY_ID"]
      : ["S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"];
    throw new ConfigError(`Invalid configuration:\n  ${missing}: required when ${given} is set`);
  }
  if (env.PAYMENT_GATEWAY === "stripe") {
    const missing = STRIPE_REQUIRED.filter((name) => !env[name]);
    if (missing.length > 0) {
      const lines = missing.map((name) => `  ${name}: required when PAYMENT_GATEWAY is stripe`);
      throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
    }
  }
  const stripeMode = (key: string | undefined) => (key?.match(/^[a-z]+_(test|live)_/) ?? [])[1];
  const [secretMode, publishableMode] = [
    stripeMode(env.STRIPE_SECRET_KEY),
    stripeMode(env.STRIPE_PUBLISHABLE_KEY),
  ];
  if (secretMode && publishableMode && secretMode !== publishableMode) {
    // the browser would make payment methods the server cannot see
    throw new ConfigError(
      `Invalid configuration:\n  STRIPE_PUBLISHABLE_KEY: a ${publishableMode} key, but STRIPE_SECRET_KEY is a ${secretMode} key`,
    );
  }
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) {
    throw new ConfigError(
      "Invalid configuration:\n  METRICS_PORT: must differ from PORT (the shop's own port)",
    );
  }
  if (!env.SESSION_SECRET && env.NODE_ENV === "production" && source.CARTWHEEL_LOCAL !== "true") {
    // `npm start` sets CARTWHEEL_LOCAL so a newcomer's machine works; a deployment must set a secret.
    throw new ConfigError(
      "Invalid configuration:\n  SESSION_SECRET: required in production (at least 32 characters)",
    );
  }
  return {
    ...env,
    SESSION_SECRET: env.SESSION_SECRET ?? localSecret(env.DATA_DIR),
    PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    LOCAL: env.NODE_ENV !== "production" || source.CARTWHEEL_LOCAL === "true",
  };
}

/** A secret generated once into the data directory, for local use only. */
function localSecret(dataDir: string): string {
  const file = join(dataDir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

let current: Env | undefined;
export function getEnv(): Env {
  current ??= parseEnv();
  return current;
}
