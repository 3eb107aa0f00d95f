// ChannelAdapter.test() for SMPP: binds a fresh session (never the live one) with the configured credentials,
// unbinds, and says in plain words what happened.
//
// The host is a tenant admin's input, so the peer may be any service at all: what it sent is never quoted (a
// stream that is not SMPP is "did not speak SMPP"), only SMPP's own fields of a real bind response are.
import { type ConnectionReason, reasonOfErrorCode } from "@switchboard/contracts";
import { EGRESS_REFUSED_DETAIL, type EgressPolicy, isEgressRefused } from "../egress";
import type { SmppConfig } from "./config";
import { smppStatus } from "./errors";
import type { BindRole } from "./link";
import * as smpp from "./protocol/index";

const UNBIND_WAIT_MS = 2_000;

export interface SmppProbeOptions {
  /** Every connection obeys it (the API always passes one). */
  egress?: EgressPolicy;
}

export interface SmppProbeResult {
  ok: boolean;
  /** Why, as a code the clients translate. */
  reason: ConnectionReason;
  detail: string;
  /** Set when the egress policy refused the connection: host:port, nothing was sent. */
  egressRefused?: string;
}

export async function probeSmpp(config: SmppConfig, opts: SmppProbeOptions = {}): Promise<SmppProbeResult> {
  const roles: BindRole[] = config.bindMode === "transceiver" ? ["transceiver"] : ["transmitter", "receiver"];
  const details: string[] = [];
  for (const role of roles) {
    const result = await bindOnce(config, role, opts.egress);
    if (!result.ok) return result;
    details.push(result.detail);
  }
  return { ok: true, reason: "ok", detail: details.join("; ") };
}

function bindOnce(config: SmppConfig, role: BindRole, egress: EgressPolicy | undefined): Promise<SmppProbeResult> {
  const where = `${config.host}:${config.port}`;
  const refused: SmppProbeResult = {
    ok: false,
    reason: "address_not_allowed",
    detail: `${EGRESS_REFUSED_DETAIL} (${where})`,
    egressRefused: where,
  };
  if (egress && !egress.precheck(config.host, config.port)) return Promise.resolve(refused);
  return new Promise((resolve) => {
    let settled = false;
    let connected = false;
    const session = new smpp.Session({
      host: config.host,
      port: config.port,
      ...(egress ? { lookup: egress.lookup(config.port) } : {}),
    });
    const finish = (reason: ConnectionReason, detail: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ok: reason === "ok", reason, detail });
    };
    const timer = setTimeout(() => {
      const waitingFor = connected ? `bind_${role}_resp` : "the TCP connection";
      finish("timeout", `timed out after ${config.bindTimeoutMs} ms waiting for ${waitingFor} from ${where}`);
      session.destroy();
    }, config.bindTimeoutMs);

    // After finish() these still fire while the session winds down; they only ensure the outcome is reported once.
    session.on("error", (err: NodeJS.ErrnoException) => {
      if (isEgressRefused(err)) {
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          resolve(refused);
        }
        return;
      }
      finish(...describeSocketError(err, where));
      session.destroy(); // a peer that sent garbage may keep the socket open
    });
    session.on("close", () => finish("closed_early", `connection to ${where} closed before bind_${role}_resp`));
    session.on("connect", () => {
      connected = true;
      const bind = new smpp.PDU(`bind_${role}`, {
        system_id: config.systemId,
        password: config.password,
        system_type: config.systemType,
        interface_version: 0x34,
      });
      session.send(bind, (resp) => {
        if (resp.command_status !== 0) {
          const { code } = smppStatus(resp.command_status);
          const hex = `0x${resp.command_status.toString(16).padStart(2, "0")}`;
          finish(
            "credentials_refused",
            `bind_${role} refused by ${where}: ${code} (${hex}); check system_id, password and IP allow-list`,
          );
          session.destroy();
          return;
        }
        finish("ok", `bound as ${role} to ${where} (SMSC system_id "${printable(resp.system_id ?? "", 16)}")`);
        const grace = setTimeout(() => session.destroy(), UNBIND_WAIT_MS);
        session.socket.once("close", () => clearTimeout(grace));
        session.send(new smpp.PDU("unbind"), () => session.close());
      });
    });
  });
}

/** An SMPP C-Octet String field as shown to people: printable ASCII only, at most its protocol length. */
function printable(text: string, max: number): string {
  return text.replace(/[^\x20-\x7e]/g, "?").slice(0, max);
}

/**
 * A socket-level failure from our side's view. An error without a system code comes from parsing what the peer
 * sent (the session's "invalid SMPP command_length <the peer's first four bytes>"), so it is described, never
 * quoted.
 */
function describeSocketError(err: NodeJS.ErrnoException, where: string): [ConnectionReason, string] {
  if (err.code === undefined || !/^E[A-Z0-9_]{1,31}$/.test(err.code))
    return ["not_smpp", `the peer at ${where} did not speak SMPP`];
  const reason = reasonOfErrorCode(err.code);
  switch (err.code) {
    case "ECONNREFUSED":
      return [reason, `connection refused by ${where} (nothing listening, or a firewall rejects us)`];
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return [reason, `host of ${where} could not be resolved (${err.code})`];
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return [reason, `${where} is unreachable (${err.code})`];
    case "ECONNRESET":
      return [reason, `connection to ${where} was reset by the peer`];
    default:
      return [reason, `connection to ${where} failed (${err.code})`];
  }
}
