import { describe, expect, it } from "vitest";
import { BAD_PORTS, portOfUrl, reasonOfCallbackError, reasonOfErrorCode } from "../src/connection-test";
import { notifyUrl } from "../src/developer";

describe("connection reasons", () => {
  it.each([
    [null, "ok"],
    ["address_not_allowed", "address_not_allowed"],
    ["bad_port", "bad_port"],
    ["timeout", "timeout"],
    ["http_404", "not_found"],
    ["http_502", "server_error"],
    ["http_302", "http_status"],
    ["ECONNREFUSED", "connection_refused"],
    ["ENOTFOUND", "host_not_found"],
    ["ECONNRESET", "connection_reset"],
    ["EHOSTUNREACH", "unreachable"],
    ["CERT_HAS_EXPIRED", "tls_failed"],
    ["ERR_TLS_CERT_ALTNAME_INVALID", "tls_failed"],
    ["HPE_INVALID_CONSTANT", "not_http"],
    ["request_failed", "request_failed"],
    ["EWHATEVER", "request_failed"],
  ] as const)("a callback's %s reads as %s", (error, reason) => {
    expect(reasonOfCallbackError(error)).toBe(reason);
  });

  it("reads a missing system code as a failed request", () => {
    expect(reasonOfErrorCode(undefined)).toBe("request_failed");
  });

  it("knows the ports HTTP is never made to, and each scheme's port", () => {
    for (const port of [0, 9, 22, 25, 6667]) expect(BAD_PORTS.has(port)).toBe(true);
    for (const port of [80, 443, 8080, 8443, 3000]) expect(BAD_PORTS.has(port)).toBe(false);
    expect(portOfUrl(new URL("https://x.example"))).toBe(443);
    expect(portOfUrl(new URL("http://x.example"))).toBe(80);
    expect(portOfUrl(new URL("http://x.example:9/"))).toBe(9);
  });
});

describe("notify URL rule", () => {
  it("refuses a reserved port with its own message key and the port, once", () => {
    const r = notifyUrl.safeParse("http://hooks.example.com:9/x");
    expect(r.success).toBe(false);
    expect(r.error?.issues).toHaveLength(1);
    expect(r.error?.issues[0]).toMatchObject({ params: { i18n: "developer.notify_url_bad_port", port: 9 } });
    expect(notifyUrl.safeParse("ftp://hooks.example.com:21/x").error?.issues).toHaveLength(1);
    expect(notifyUrl.safeParse("https://hooks.example.com:8443/x").success).toBe(true);
    expect(notifyUrl.safeParse("").success).toBe(true);
  });
});
