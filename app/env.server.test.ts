import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "./env.server.ts";

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "cartwheel-env-"));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const SECRET = "s".repeat(32);

function configError(source: NodeJS.ProcessEnv): ConfigError {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`parseEnv accepted ${JSON.stringify(source)}`);
}

describe("parseEnv", () => {
  it("fills in the documented defaults", () => {
    const env = parseEnv({ DATA_DIR: dataDir });
    expect(env).toMatchObject({
      NODE_ENV: "development",
      DATABASE_URL: "file:./data/cartwheel.db",
      FILE_STORE_URL: "file:./data/uploads",
      MAIL_URL: "file:./data/mail",
      PORT: 3000,
      HOST: "127.0.0.1",
      PUBLIC_URL: "http://localhost:3000",
      LOG_LEVEL: "info",
      SHOP_NAME: "Cartwheel",
      SEED_ON_EMPTY: "true",
    });
    expect(env.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
  });

  it("accepts valid non-default values", () => {
    const env = parseEnv({
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      SESSION_SECRET: SECRET,
      DATABASE_URL: "postgres://u@db:5432/shop",
      FILE_STORE_URL: "s3://bucket",
      MAIL_URL: "smtp://mail:25",
      PORT: "8080",
      PUBLIC_URL: "https://shop.example",
    });
    expect(env).toMatchObject({
      DATABASE_URL: "postgres://u@db:5432/shop",
      FILE_STORE_URL: "s3://bucket",
      PORT: 8080,
      SESSION_SECRET: SECRET,
      PUBLIC_URL: "https://shop.example",
    });
    expect(parseEnv({ DATA_DIR: dataDir, DATABASE_URL: "postgresql://x/y" }).DATABASE_URL).toBe(
      "postgresql://x/y",
    );
  });

  it.each([
    ["DATABASE_URL", "mysql://x"],
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["PORT", "0"],
    ["FILE_STORE_URL", "ftp://x"],
    ["MAIL_URL", "pop3://x"],
    ["NODE_ENV", "staging"],
    ["LOG_LEVEL", "loud"],
    ["PUBLIC_URL", "not a url"],
  ])("rejects %s=%s with a ConfigError naming the variable", (name, value) => {
    const error = configError({ DATA_DIR: dataDir, [name]: value });
    expect(error.message).toContain(name);
    // only the bad variable is named
    const others = ["DATABASE_URL", "PORT", "FILE_STORE_URL", "SESSION_SECRET"].filter((n) => n !== name);
    for (const other of others) expect(error.message).not.toContain(`${other}:`);
  });

  it("names every bad variable at once", () => {
    const error = configError({ DATA_DIR: dataDir, DATABASE_URL: "mysql://x", PORT: "abc" });
    expect(error.message).toContain("DATABASE_URL");
    expect(error.message).toContain("PORT");
  });

  it("requires SESSION_SECRET in production", () => {
    const error = configError({ DATA_DIR: dataDir, NODE_ENV: "production" });
    expect(error.message).toContain("SESSION_SECRET");
  });

  it("lets a local production run (CARTWHEEL_LOCAL=true) use the generated secret", () => {
    const env = parseEnv({ DATA_DIR: dataDir, NODE_ENV: "production", CARTWHEEL_LOCAL: "true" });
    expect(env.SESSION_SECRET).toBe(readFileSync(join(dataDir, "session-secret"), "utf8").trim());
  });

  it("rejects a SESSION_SECRET shorter than 32 characters", () => {
    const error = configError({ DATA_DIR: dataDir, SESSION_SECRET: "too-short" });
    expect(error.message).toContain("SESSION_SECRET");
  });

  it("generates the local secret once into DATA_DIR and reuses it", () => {
    const nested = join(dataDir, "not", "yet", "there");
    const first = parseEnv({ DATA_DIR: nested }).SESSION_SECRET;
    const file = join(nested, "session-secret");
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(parseEnv({ DATA_DIR: nested }).SESSION_SECRET).toBe(first);
    // another data directory gets a different secret
    expect(parseEnv({ DATA_DIR: join(dataDir, "other") }).SESSION_SECRET).not.toBe(first);
  });

  it("does not write a secret file when SESSION_SECRET is given", () => {
    parseEnv({ DATA_DIR: dataDir, SESSION_SECRET: SECRET });
    expect(() => statSync(join(dataDir, "session-secret"))).toThrow();
  });
});

describe("parseEnv: S3 file store settings", () => {
  it("reads the S3 settings, with us-east-1 and virtual-host style by default", () => {
    expect(parseEnv({ DATA_DIR: dataDir, FILE_STORE_URL: "s3://shop-images/uploads" })).toMatchObject({
      FILE_STORE_URL: "s3://shop-images/uploads",
      S3_REGION: "us-east-1",
      S3_FORCE_PATH_STYLE: "false",
    });
    const env = parseEnv({
      DATA_DIR: dataDir,
      FILE_STORE_URL: "s3://shop-images",
      S3_ENDPOINT: "http://127.0.0.1:9000",
      S3_REGION: "eu-central-1",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_FORCE_PATH_STYLE: "true",
    });
    expect(env).toMatchObject({
      S3_ENDPOINT: "http://127.0.0.1:9000",
      S3_REGION: "eu-central-1",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_FORCE_PATH_STYLE: "true",
    });
  });

  it.each([
    ["FILE_STORE_URL", "s3://Bad_Bucket", /bucket name/],
    ["FILE_STORE_URL", "s3://shop-images/../x", /prefix/],
    ["S3_ENDPOINT", "ftp://minio:9000", /http/],
    ["S3_ENDPOINT", "not a url", /http/],
    ["S3_REGION", "Europe West", /region/],
    ["S3_FORCE_PATH_STYLE", "yes", /true|false/],
  ])("rejects %s=%s naming the variable", (name, value, message) => {
    const error = configError({ DATA_DIR: dataDir, [name]: value });
    expect(error.message).toContain(`${name}:`);
    expect(error.message).toMatch(message);
  });

  it("wants the access key id and the secret together", () => {
    expect(configError({ DATA_DIR: dataDir, S3_ACCESS_KEY_ID: "key" }).message).toContain(
      "S3_SECRET_ACCESS_KEY: required when S3_ACCESS_KEY_ID is set",
    );
    expect(configError({ DATA_DIR: dataDir, S3_SECRET_ACCESS_KEY: "secret" }).message).toContain(
      "S3_ACCESS_KEY_ID: required when S3_SECRET_ACCESS_KEY is set",
    );
  });
});
