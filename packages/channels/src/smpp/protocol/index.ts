// Our SMPP 3.4 codec and session (in place of the `smpp` npm package): pdu.ts the wire format, text.ts the message
// alphabets and the UDH, session.ts framing, sequence numbers, response matching and the server.
export {
  COMMAND_IDS,
  type Command,
  type CommandName,
  type DecodedMessage,
  ESME_RINVCMDID,
  ESME_RINVCMDLEN,
  MAX_PDU_LENGTH,
  MalformedPdu,
  PDU,
  type PduOptions,
  type RawTlv,
} from "./pdu";
export { corkForTick, createServer, Server, Session, type SessionOptions } from "./session";
