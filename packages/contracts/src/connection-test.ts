// Why a connection test came out as it did (a channel's "test connection", a notify URL's test delivery), as a
// code every client translates into its user's language. The English `detail` beside it is the technical
// account (host, port, system code) for whoever debugs the connection: shown at most as secondary text.

export const CONNECTION_REASONS = [
  /** It worked: bound, authenticated, or the receiver answered 2xx. */
  "ok",
  /** The egress policy refuses the address (loopback, private, reserved): nothing was sent. */
  "address_not_allowed",
  /** A port no HTTP client may call (0, or one of the Fetch standard's "bad ports" such as 9 or 25). */
  "bad_port",
  "timeout",
  "connection_refused",
  "host_not_found",
  "connection_reset",
  "unreachable",
  "tls_failed",
  /** The far side did not answer like an HTTP server. */
  "not_http",
  /** The far side did not speak SMPP. */
  "not_smpp",
  /** The connection closed before an answer. */
  "closed_early",
  /** The provider refused the credentials (HTTP 401/403, an SMPP bind refused, a token refused). */
  "credentials_refused",
  /** HTTP 404: no such URL. */
  "not_found",
  /** HTTP 5xx. */
  "server_error",
  /** Another HTTP status (given beside the reason). */
  "http_status",
  /** The stored key cannot be used (not a key file, cannot sign). */
  "invalid_key",
  /** The provider answered, but not with what the protocol promises (e.g. no access token). */
  "bad_answer",
  "request_failed",
] as const;
export type ConnectionReason = (typeof CONNECTION_REASONS)[number];

/**
 * Ports an HTTP request can never be made to: 0, and the Fetch standard's "bad ports" (fetch.spec.whatwg.org,
 * "port blocking"): well-known ports of other protocols (9 discard, 22 SSH, 25 SMTP...), which browsers and
 * undici refuse to call.
 */
export const BAD_PORTS: ReadonlySet<number> = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** The port a URL connects to: its own, else the scheme's (80 for http, 443 for https). */
export function portOfUrl(url: URL): number {
  return url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
}

/** A system error code (node's net, dns and tls, undici's) as a reason; an unknown or missing code: request_failed. */
export function reasonOfErrorCode(code: string | undefined): ConnectionReason {
  switch (code) {
    case "ECONNREFUSED":
      return "connection_refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
      return "host_not_found";
    case "ECONNRESET":
    case "EPIPE":
      return "connection_reset";
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "unreachable";
    case "UND_ERR_CONNECT_TIMEOUT":
    case "UND_ERR_HEADERS_TIMEOUT":
      return "timeout";
    case "UND_ERR_SOCKET":
      return "closed_early";
  }
  if (code === undefined) return "request_failed";
  if (code.startsWith("ERR_TLS") || code.startsWith("ERR_SSL") || code.includes("CERT")) return "tls_failed";
  if (code.startsWith("HPE_")) return "not_http";
  return "request_failed";
}

/**
 * A callback delivery's `error` as the callback sender writes it (address_not_allowed, timeout, request_failed,
 * http_<status>, a system code such as ECONNREFUSED; null when delivered) as a reason.
 */
export function reasonOfCallbackError(error: string | null): ConnectionReason {
  if (error === null) return "ok";
  if (error === "address_not_allowed" || error === "timeout" || error === "bad_port") return error;
  if (/^http_\d{3}$/.test(error)) {
    const status = Number(error.slice(5));
    return status === 404 ? "not_found" : status >= 500 ? "server_error" : "http_status";
  }
  return reasonOfErrorCode(error);
}
