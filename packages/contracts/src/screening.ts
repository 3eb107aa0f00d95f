// Screening (task type 1): which channels can say whether numbers can receive, without sending anything.
//   - RCS: always (RBM's users:batchGet or per-number capabilities);
//   - WhatsApp: where the provider offers a contacts check (contactsCheckUrl: the Cloud API itself has none);
//   - SMS over SMPP: where the channel names an HLR lookup endpoint (lookupUrl, docs/channels.md).
// The API refuses screening for countries whose channel cannot check (nothing charged); the workers only ever
// call the channel's reachability check for a screening batch, never its send.
import { ChannelKind } from "./codes";

/** Whether a channel of this kind and stored settings can screen numbers. */
export function channelCanScreen(kind: string, config: unknown): boolean {
  const c = (config ?? {}) as Record<string, unknown>;
  switch (kind) {
    case ChannelKind.RCS:
      return true;
    case ChannelKind.WHATSAPP:
      return typeof c.contactsCheckUrl === "string" && c.contactsCheckUrl !== "";
    case ChannelKind.SMPP:
      return typeof c.lookupUrl === "string" && c.lookupUrl !== "";
    default:
      return false;
  }
}
