// ChannelAdapter.test() for SMPP: binds a fresh session (never the live one) with the configured credentials,
// unbinds, and says in plain words what happened.
import smpp from "smpp";
import type { SmppConfig } from "./config";
import { smppStatus } from "./errors";
import type { BindRole } from "./link";

const UNBIND_WAIT_MS = 2_000;

export async function probeSmpp(config: SmppConfig): Promise<{ ok: boolean; detail: string }> {
  const roles: BindRole[] = config.bindMode === "transceiver" ? ["transceiver"] : ["transmitter", "receiver"];
  const details: string[] = [];
  for (const role of roles) {
    const result = await bindOnce(config, role);
    if (!result.ok) return result;
    details.push(result.detail);
  }
  return { ok: true, detail: details.join("; ") };
}

function bindOnce(config: SmppConfig, role: BindRole): Promise<{ ok: boolean; detail: string }> {
  const where = `${config.host}:${config.port}`;
  return new Promise((resolve) => {
    let settled = false;
    let connected = false;
    const session = new smpp.Session({ host: config.host, port: config.port });
    const finish = (ok: boolean, detail: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ok, detail });
    };
    const timer = setTimeout(() => {
      const waitingFor = connected ? `bind_${role}_resp` : "the TCP connection";
      finish(false, `timed out after ${config.bindTimeoutMs} ms waiting for ${waitingFor} from ${where}`);
      session.destroy();
    }, config.bindTimeoutMs);

    // After finish() these still fire while the session winds down; they only ensure the outcome is reported once.
    session.on("error", (err: NodeJS.ErrnoException) => finish(false, describeSocketError(err, where)));
    session.on("close", () => finish(false, `connection to ${where} closed before bind_${role}_resp`));
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
            false,
            `bind_${role} refused by ${where}: ${code} (${hex}); check system_id, password and IP allow-list`,
          );
          session.destroy();
          return;
        }
        finish(true, `bound as ${role} to ${where} (SMSC system_id "${resp.system_id ?? ""}")`);
        const grace = setTimeout(() => session.destroy(), UNBIND_WAIT_MS);
        session.socket.once("close", () => clearTimeout(grace));
        session.send(new smpp.PDU("unbind"), () => session.close());
      });
    });
  });
}

function describeSocketError(err: NodeJS.ErrnoException, where: string): string {
  switch (err.code) {
    case "ECONNREFUSED":
      return `connection refused by ${where} (nothing listening, or a firewall rejects us)`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `host of ${where} could not be resolved (${err.code})`;
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `${where} is unreachable (${err.code})`;
    case "ECONNRESET":
      return `connection to ${where} was reset by the peer`;
    default:
      return `connection to ${where} failed: ${err.code ?? err.message}`;
  }
}
