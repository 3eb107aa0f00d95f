// `npm start`'s log lines (scripts/lib/log-lines.ts): JSON made readable by pino-pretty in a demo start, JSON as
// it is in a production start, other output untouched.
import { describe, expect, it } from "vitest";
import { logLineFormatter } from "../../../scripts/lib/log-lines";

const line = JSON.stringify({
  level: 40,
  time: Date.UTC(2026, 10, 26, 9, 30, 0),
  pid: 1,
  hostname: "h",
  service: "workers",
  dependency: "Redis",
  msg: "Redis unreachable at 127.0.0.1:6390 (ECONNREFUSED), retrying every 5 s",
});

describe("logLineFormatter", () => {
  it("makes a demo start's JSON lines readable: level, message, fields; no pid, host or service", async () => {
    const said: string[] = [];
    const format = await logLineFormatter({ production: false, colorize: false, say: (l) => said.push(l) });
    const shown = format(line);
    expect(shown).toMatch(/WARN: Redis unreachable at 127\.0\.0\.1:6390 \(ECONNREFUSED\), retrying every 5 s/);
    expect(shown).toContain('"dependency":"Redis"');
    expect(shown).not.toContain("\n");
    expect(shown).not.toMatch(/pid|hostname|service/);
    expect(shown.startsWith("{")).toBe(false);
    expect(format("SMSC simulator listening on 127.0.0.1:2775")).toBe("SMSC simulator listening on 127.0.0.1:2775");
    expect(said).toEqual([]);
  });

  it("keeps JSON in a production start", async () => {
    const format = await logLineFormatter({ production: true, colorize: false, say: () => undefined });
    expect(format(line)).toBe(line);
  });
});
