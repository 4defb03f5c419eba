import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { freePort } from "../../bench/lib/procs.ts";
import { ensureBuild, ROOT } from "./build.ts";

/**
 * The production server (`node server/main.ts` on the real build) as a process of its own, on a
 * free port, with a test's configuration. Its JSON log lines are read as they come, so a test
 * awaits what the server says ("Cartwheel is listening", "Cartwheel is ready") instead of polling.
 */
export interface SpawnedShop {
  url: string;
  port: number;
  child: ChildProcess;
  /** resolves at the first log line (past or future) whose message is `message` */
  logged(message: string): Promise<Record<string, unknown>>;
  /** what it printed so far (for failure messages) */
  output(): string;
  stop(): Promise<void>;
}

export async function spawnShop(env: Record<string, string>, dataDir: string): Promise<SpawnedShop> {
  const buildDir = ensureBuild();
  const port = Number(env.PORT ?? (await freePort()));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["server/main.ts"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      SESSION_SECRET: "spawned-shop-test-secret-0123456789abcdef",
      BUILD_DIR: buildDir,
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      FILE_STORE_URL: `file:${join(dataDir, "uploads")}`,
      MAIL_URL: `file:${join(dataDir, "mail")}`,
      SEED_ON_EMPTY: "false",
      PAYMENT_DELAY_MS: "0",
      LOG_LEVEL: "info",
      ...env,
    },
  });
  const lines: Record<string, unknown>[] = [];
  const waiting: { message: string; resolve: (line: Record<string, unknown>) => void }[] = [];
  let output = "";
  let rest = "";
  const exited = once(child, "exit");
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    const text = rest + chunk.toString();
    const complete = text.split("\n");
    rest = complete.pop() ?? "";
    for (const raw of complete) {
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        continue;
      }
      lines.push(line);
      for (const waiter of waiting.filter((w) => w.message === line.msg)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  return {
    url,
    port,
    child,
    logged(message) {
      const seen = lines.find((line) => line.msg === message);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiting.push({ message, resolve });
        void exited.then(() => reject(new Error(`the shop exited before logging "${message}":\n${output}`)));
      });
    },
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await exited;
    },
  };
}
