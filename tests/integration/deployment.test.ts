import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { ENV_VARIABLES, parseEnv } from "../../app/env.server.ts";
import { freePort, spawnTracked, type Tracked, waitFor200 } from "../../bench/lib/procs.ts";
import { type ShopServer, startShop } from "../../bench/lib/shop.ts";
import { POSTGRES_ADMIN_URL } from "../db-utils.ts";
import { ensureBuild, ROOT } from "../helpers/build.ts";

/**
 * The deployment recipes of deploy/ (README "Deploying"), tested as far as this machine can: no
 * container engine runs here, so the image is not built — its runtime stage is laid out as its COPY
 * lines say and started with its own command and environment plus the compose file's, on
 * PostgreSQL; the systemd unit passes `systemd-analyze verify`; the Caddyfile passes `caddy
 * validate`; and the nginx example serves the shop over TLS, with the client's address counted as
 * nginx saw it however X-Forwarded-For is spoofed.
 */
const DEPLOY = join(ROOT, "deploy");
const read = (name: string) => readFileSync(join(DEPLOY, name), "utf8");

/** The runtime stage of the Dockerfile: its ENV, its COPY lines and its CMD. */
function runtimeStage(dockerfile: string) {
  const joined = dockerfile.replace(/\\\n\s*/g, " ");
  const stage = joined.slice(joined.indexOf("AS runtime"));
  const env: Record<string, string> = {};
  for (const line of stage.split("\n").filter((l) => l.startsWith("ENV "))) {
    for (const [, name, value] of line.slice(4).matchAll(/(\w+)=(\S+)/g)) env[name!] = value!;
  }
  const copies = stage
    .split("\n")
    .filter((l) => l.startsWith("COPY "))
    .map((l) => l.slice(5).trim().split(/\s+/));
  const cmd = JSON.parse(
    stage
      .split("\n")
      .find((l) => l.startsWith("CMD "))!
      .slice(4),
  ) as string[];
  const healthcheck = stage.match(/HEALTHCHECK .*?CMD (\[.*\])/)?.[1];
  return { env, copies, cmd, healthcheck: healthcheck ? (JSON.parse(healthcheck) as string[]) : null };
}

describe("the systemd unit and the Caddyfile", () => {
  it("the unit passes systemd-analyze verify, and runs what start:prod runs", () => {
    const dir = mkdtempSync(join(tmpdir(), "cartwheel-unit-"));
    // verify checks that the executable exists: the checkout's own paths stand for /opt/cartwheel
    const unit = read("cartwheel.service").replaceAll("/opt/cartwheel", ROOT);
    writeFileSync(join(dir, "cartwheel.service"), unit);
    const verified = spawnSync("systemd-analyze", ["verify", "--man=no", join(dir, "cartwheel.service")], {
      encoding: "utf8",
    });
    rmSync(dir, { recursive: true, force: true });
    expect(`${verified.stdout}${verified.stderr}`).toBe("");
    expect(verified.status).toBe(0);
    const startProd = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts["start:prod"];
    expect(startProd).toBe("NODE_ENV=production MALLOC_ARENA_MAX=2 node server/main.ts");
    expect(unit).toMatch(/^Environment=NODE_ENV=production MALLOC_ARENA_MAX=2 /m);
    expect(unit).toMatch(/^ExecStart=\S+\/node_modules\/\.bin\/node server\/main\.ts$/m);
  });

  it("the Caddyfile passes caddy validate", () => {
    const validated = spawnSync(
      "caddy",
      ["validate", "--config", join(DEPLOY, "Caddyfile"), "--adapter", "caddyfile"],
      { encoding: "utf8", env: { ...process.env, SHOP_DOMAIN: "shop.example.com" } },
    );
    expect(validated.stderr + validated.stdout).toContain("Valid configuration");
    expect(validated.status).toBe(0);
  });
});

describe("the image's runtime stage, with the compose file's environment, on PostgreSQL", () => {
  const stage = runtimeStage(read("Dockerfile"));
  const compose = parseYaml(read("compose.yaml")) as {
    services: { shop: { environment: Record<string, string> } };
  };
  let app: string;
  let dataDir: string;
  let database = "";
  let shop: Tracked | null = null;
  let url = "";

  beforeAll(async () => {
    const build = ensureBuild();
    app = mkdtempSync(join(tmpdir(), "cartwheel-image-"));
    dataDir = join(app, "data");
    for (const [source, target] of stage.copies.filter(([first]) => !first!.startsWith("--from"))) {
      cpSync(join(ROOT, source!), join(app, target!), { recursive: true });
    }
    // COPY --from=build: what build/ points at; RUN npm ci --omit=dev: the checkout's dependencies
    const fromBuild = stage.copies.find(([first]) => first === "--from=build")!;
    cpSync(realpathSync(build), join(app, fromBuild[2]!), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(app, "node_modules"));

    database = `cartwheel_image_${process.pid}`;
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${database}`);
    await admin.query(`create database ${database}`);
    await admin.end();
    const databaseUrl = new URL(POSTGRES_ADMIN_URL);
    databaseUrl.pathname = `/${database}`;

    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const composed = Object.fromEntries(
      Object.entries(compose.services.shop.environment).map(([name, value]) => [
        name,
        {
          DATABASE_URL: databaseUrl.toString(),
          SESSION_SECRET: "a-deployment-test-secret-0123456789abcdef",
          PUBLIC_URL: url,
        }[name] ?? value,
      ]),
    );
    shop = spawnTracked(stage.cmd[0] === "node" ? process.execPath : stage.cmd[0]!, stage.cmd.slice(1), {
      cwd: app,
      env: {
        PATH: process.env.PATH,
        ...stage.env,
        // /data is the image's volume: a directory of the test's here
        DATA_DIR: dataDir,
        FILE_STORE_URL: `file:${join(dataDir, "uploads")}`,
        MAIL_URL: `file:${join(dataDir, "mail")}`,
        PORT: String(port),
        HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
        ...composed,
      },
    });
    await waitFor200(`${url}/readyz`, shop, 120_000);
  }, 180_000);

  afterAll(async () => {
    await shop?.stop();
    rmSync(app, { recursive: true, force: true });
    if (database) {
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
    }
  });

  it("names only variables the shop knows, and they pass its configuration check", () => {
    const names = Object.keys(compose.services.shop.environment);
    expect(names.filter((name) => !ENV_VARIABLES.includes(name))).toEqual([]);
    expect(
      Object.keys(stage.env).filter((name) => !ENV_VARIABLES.includes(name) && name !== "MALLOC_ARENA_MAX"),
    ).toEqual([]);
    const config = parseEnv({
      ...stage.env,
      ...compose.services.shop.environment,
      DATABASE_URL: "postgres://cartwheel:secret@db:5432/cartwheel",
      SESSION_SECRET: "x".repeat(40),
      PUBLIC_URL: "https://shop.example.com",
    });
    expect(config).toMatchObject({ NODE_ENV: "production", TRUST_PROXY: "true", HOST: "0.0.0.0" });
  });

  it("starts with its own command, migrates an empty PostgreSQL database, answers, and its health check passes", async () => {
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    const page = await fetch(`${url}/products`);
    expect(page.status).toBe(200);
    expect(stage.healthcheck).not.toBeNull();
    const [command, ...args] = stage.healthcheck!;
    expect(command).toBe("node");
    const checked = spawnSync(process.execPath, args, {
      env: { ...process.env, PORT: new URL(url).port },
      encoding: "utf8",
    });
    expect(checked.status).toBe(0);
  });
});

/** An HTTPS request to nginx on 127.0.0.1, for the server name it serves, its self-signed certificate accepted. */
function viaTls(
  port: number,
  path: string,
  {
    method = "GET",
    headers = {},
    body,
  }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method,
        servername: "shop.example.com",
        rejectUnauthorized: false,
        headers: { Host: "shop.example.com", ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    if (body) req.write(body);
    req.end();
  });
}

describe("nginx in front of the shop (deploy/nginx.conf)", () => {
  let dir: string;
  let shop: ShopServer;
  let nginx: ChildProcess;
  let tls = 0;
  let plain = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "cartwheel-nginx-"));
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=shop.example.com",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    shop = await startShop(ROOT, ensureBuild(), join(dir, "data"), [], {
      TRUST_PROXY: "true",
      SEED_ON_EMPTY: "false",
    });
    [tls, plain] = [await freePort(), await freePort()];
    // the example as it is, on test ports and with the test's certificate and shop
    const site = read("nginx.conf")
      .replace(/^\s*listen \[::\].*$/gm, "")
      .replace("listen 80;", `listen 127.0.0.1:${plain};`)
      .replace("listen 443 ssl http2;", `listen 127.0.0.1:${tls} ssl http2;`)
      .replace("/etc/letsencrypt/live/shop.example.com/fullchain.pem", join(dir, "cert.pem"))
      .replace("/etc/letsencrypt/live/shop.example.com/privkey.pem", join(dir, "key.pem"))
      .replace("server 127.0.0.1:3000;", `server 127.0.0.1:${shop.port};`);
    writeFileSync(
      join(dir, "nginx.conf"),
      `pid ${join(dir, "nginx.pid")};\nerror_log ${join(dir, "error.log")};\nevents {}\nhttp {\n` +
        `access_log off;\nclient_body_temp_path ${dir};\nproxy_temp_path ${dir};\n${site}\n}\n`,
    );
    nginx = spawn("nginx", ["-p", dir, "-c", join(dir, "nginx.conf"), "-g", "daemon off;"], {
      stdio: "ignore",
    });
    for (let tries = 0; tries < 200; tries++) {
      const answer = await viaTls(tls, "/healthz").catch(() => null);
      if (answer?.status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`nginx did not serve the shop: ${readFileSync(join(dir, "error.log"), "utf8")}`);
  }, 180_000);

  afterAll(async () => {
    nginx?.kill("SIGQUIT");
    await shop?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the shop over TLS, sends plain HTTP there, and keeps /metrics to itself", async () => {
    expect((await viaTls(tls, "/products")).status).toBe(200);
    // fetch cannot name the Host: a plain request does
    const redirected = await new Promise<{ status: number; location: string | undefined }>(
      (resolve, reject) => {
        httpRequest(
          { host: "127.0.0.1", port: plain, path: "/products", headers: { Host: "shop.example.com" } },
          (res) => {
            res.resume();
            resolve({ status: res.statusCode ?? 0, location: res.headers.location });
          },
        )
          .on("error", reject)
          .end();
      },
    );
    expect(redirected).toEqual({ status: 301, location: "https://shop.example.com/products" });
    expect((await viaTls(tls, "/metrics")).status).toBe(404);
  });

  it("counts the client as nginx saw it: a spoofed X-Forwarded-For does not evade the per-address limit", async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 11; n++) {
      const answer = await viaTls(tls, "/orders/track", {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: "https://shop.example.com",
          // a different made-up address each time: the shop reads the last hop, nginx's
          "X-Forwarded-For": `203.0.113.${n + 1}`,
        },
        body: "orderNumber=CW-0000000000&email=nobody%40example.com",
      });
      statuses.push(answer.status);
    }
    // 10 lookups per address per 15 minutes (README, Operations): the 11th is refused
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
  });
});
