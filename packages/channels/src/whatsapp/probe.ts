// Connection test of a WhatsApp Cloud API channel: reads the configured business phone number
// (GET {baseUrl}/{apiVersion}/{phoneNumberId}) with the access token, as the Graph API documents.
// 200 proves the token is valid and may use that number.
import {
  elapsedSince,
  failedProbe,
  joinUrl,
  jsonOf,
  type ProbeOptions,
  type ProbeResult,
  probeRequest,
  reasonOfStatus,
  shorten,
} from "../http/request";

export interface WhatsappProbeConfig {
  baseUrl: string;
  apiVersion: string;
  phoneNumberId: string;
  accessToken: string;
}

/**
 * The Graph API's documented error object ({ error: { message, code, type } }) as a sentence: its message cut
 * short and a numeric code; any other answer (an HTML page, another service) is not quoted.
 */
function graphError(status: number, body: string): string {
  const error = jsonOf(body)?.error as { message?: unknown; code?: unknown } | undefined;
  const message = typeof error?.message === "string" ? shorten(error.message) : "no Graph API error message";
  const code = Number.isSafeInteger(error?.code) ? ` (code ${String(error?.code)})` : "";
  return `the Graph API answered HTTP ${status}: ${message}${code}`;
}

export async function probeWhatsapp(config: WhatsappProbeConfig, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const startedAt = performance.now();
  const url = new URL(joinUrl(config.baseUrl, `${config.apiVersion}/${encodeURIComponent(config.phoneNumberId)}`));
  url.searchParams.set("fields", "display_phone_number,verified_name");
  const answer = await probeRequest(
    url.toString(),
    { method: "GET", headers: { authorization: `Bearer ${config.accessToken}`, accept: "application/json" } },
    opts,
  );
  const latencyMs = elapsedSince(startedAt);
  if ("error" in answer) return failedProbe(answer, latencyMs);
  if (answer.status !== 200) {
    const { status } = answer;
    return {
      ok: false,
      reason: reasonOfStatus(status),
      httpStatus: status,
      detail: graphError(status, answer.body),
      latencyMs,
    };
  }
  const phone = jsonOf(answer.body);
  const name = typeof phone?.verified_name === "string" ? ` "${shorten(phone.verified_name, 100)}"` : "";
  const number = typeof phone?.display_phone_number === "string" ? ` ${shorten(phone.display_phone_number, 32)}` : "";
  return {
    ok: true,
    reason: "ok",
    httpStatus: 200,
    detail: `phone number ${config.phoneNumberId}${number}${name} is reachable with this token`,
    latencyMs,
  };
}
