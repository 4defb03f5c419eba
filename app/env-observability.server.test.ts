import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "./env.server.ts";

/** The observability variables (decision 027): off by default; a bad value names its variable. */
const BASE = { SESSION_SECRET: "s".repeat(32), DATA_DIR: "/tmp/cartwheel-env-observability" };

function refusal(source: NodeJS.ProcessEnv): string {
  try {
    parseEnv({ ...BASE, ...source });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error(`parseEnv accepted ${JSON.stringify(source)}`);
}

describe("metrics and tracing settings", () => {
  it("are off unless set; the metrics listener is on 127.0.0.1 by default", () => {
    const env = parseEnv(BASE);
    expect(env.METRICS_TOKEN).toBeUndefined();
    expect(env.METRICS_PORT).toBeUndefined();
    expect(env.METRICS_HOST).toBe("127.0.0.1");
    expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    const on = parseEnv({
      ...BASE,
      METRICS_TOKEN: "a-long-enough-token-123",
      METRICS_PORT: "9464",
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318",
    });
    expect(on).toMatchObject({ METRICS_TOKEN: "a-long-enough-token-123", METRICS_PORT: 9464 });
  });

  it("refuse a bad value, naming the variable", () => {
    expect(refusal({ METRICS_TOKEN: "short" })).toMatch(/METRICS_TOKEN: must be 16 to 256/);
    expect(refusal({ METRICS_TOKEN: "has spaces in the middle of it" })).toMatch(/METRICS_TOKEN:/);
    expect(refusal({ METRICS_PORT: "http" })).toMatch(/METRICS_PORT:/);
    expect(refusal({ METRICS_PORT: "70000" })).toMatch(/METRICS_PORT:/);
    expect(refusal({ METRICS_PORT: "3000", PORT: "3000" })).toMatch(/METRICS_PORT: must differ from PORT/);
    expect(refusal({ METRICS_HOST: " " })).toMatch(/METRICS_HOST:/);
    expect(refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toMatch(
      /OTEL_EXPORTER_OTLP_ENDPOINT:/,
    );
  });
});
