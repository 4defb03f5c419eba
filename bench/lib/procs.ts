/**
 * Child-process bookkeeping for the benchmark: every process started here is registered, and is
 * stopped when the run ends, fails, or is interrupted (SIGINT/SIGTERM). Only processes this run
 * spawned are ever signalled, each by its own pid.
 */
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { once } from "node:events";
import { request } from "node:http";
import { createServer } from "node:net";

type Cleanup = () => void | Promise<void>;

const children = new Set<ChildProcess>();
const cleanups = new Set<Cleanup>();

export interface Tracked {
  child: ChildProcess;
  /** Last ~16 KB of combined stdout/stderr, for error messages. */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
  stop(graceMs?: number): Promise<void>;
  exited: Promise<number | null>;
}

export function spawnTracked(command: string, args: string[], options: SpawnOptions = {}): Tracked {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
  children.add(child);
  let buffer = "";
  const keep = (chunk: Buffer) => {
    buffer = (buffer + chunk.toString("utf8")).slice(-16_384);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => {
      children.delete(child);
      resolve(code);
    });
    child.once("error", (error) => {
      children.delete(child);
      buffer += `\n[spawn error] ${error.message}`;
      resolve(null);
    });
  });
  return {
    child,
    output: () => buffer,
    exited,
    async stop(graceMs = 5_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Registers extra cleanup (e.g. a Chrome instance or a temp dir) for the end of the run. */
export function onCleanup(fn: Cleanup): () => void {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

let cleaning: Promise<void> | undefined;
/** Stops every tracked child and runs the registered cleanups; safe to call more than once. */
export function cleanupAll(): Promise<void> {
  cleaning ??= (async () => {
    for (const fn of [...cleanups].reverse()) {
      try {
        await fn();
      } catch {
        // best effort
      }
    }
    cleanups.clear();
    await Promise.all(
      [...children].map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await once(child, "exit").catch(() => {});
        clearTimeout(timer);
      }),
    );
  })();
  return cleaning;
}

/** Last-resort synchronous kill (process 'exit' handler cannot await). */
function killRemainingSync() {
  for (const child of children) {
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }
}

let interrupted = false;
/** True once SIGINT/SIGTERM/SIGHUP arrived: failures after that are the shutdown, not the app. */
export const wasInterrupted = () => interrupted;

let installed = false;
export function installExitHandlers() {
  if (installed) return;
  installed = true;
  process.on("exit", killRemainingSync);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      interrupted = true;
      console.error(`\n[bench] ${signal}: stopping child processes…`);
      cleanupAll().finally(() => process.exit(130));
    });
  }
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  server.close();
  await once(server, "close");
  return port;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * A GET with exactly the headers given (node:http, no agent, no default Accept-Encoding — unlike
 * fetch, which always asks for gzip).
 */
export function httpGet(url: string, headers: Record<string, string> = {}, timeoutMs = 10_000) {
  return new Promise<HttpResponse>((resolve, reject) => {
    const req = request(url, { method: "GET", headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${url}`)));
    req.on("error", reject);
    req.end();
  });
}

/**
 * Polls `url` until it answers 200; returns performance.now() at that moment. Fails if the process
 * exits first or `timeoutMs` passes.
 */
export async function waitFor200(url: string, proc: Tracked, timeoutMs = 60_000, intervalMs = 10) {
  const deadline = performance.now() + timeoutMs;
  let exited = false;
  void proc.exited.then(() => {
    exited = true;
  });
  let last = "";
  while (performance.now() < deadline) {
    if (exited) throw new Error(`process exited before ${url} answered 200:\n${proc.output()}`);
    try {
      const res = await httpGet(url, {}, 30_000);
      if (res.status === 200) return performance.now();
      last = `status ${res.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (last: ${last}):\n${proc.output()}`);
}

/** Waits for a line `LISTENING <port>` on a child's stdout (the bench's own helper servers print it). */
export function waitForListening(proc: Tracked, timeoutMs = 15_000): Promise<number> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`no LISTENING line:\n${proc.output()}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString("utf8");
      const match = /LISTENING (\d+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        proc.child.stdout?.off("data", onData);
        resolve(Number(match[1]));
      }
    };
    proc.child.stdout?.on("data", onData);
    void proc.exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`helper server exited:\n${proc.output()}`));
    });
  });
}
