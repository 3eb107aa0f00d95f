// The one map from SMPP command_status to (code name, retryable). "Retryable" means the same PDU may be accepted
// later (congestion, SMSC trouble, our bind state); everything about the message itself (addresses, coding,
// flags, TLVs, routing refusals) is permanent and retrying would only burn throughput.

export interface SmppStatus {
  /** e.g. "ESME_RINVDSTADR"; unknown vendor codes become "ESME_0x00000400". */
  code: string;
  retryable: boolean;
}

export const ESME_ROK = 0x00;
export const ESME_RINVCMDID = 0x03;
export const ESME_RINVBNDSTS = 0x04;
export const ESME_RALYBND = 0x05;
export const ESME_RINVSRCADR = 0x0a;
export const ESME_RINVDSTADR = 0x0b;
export const ESME_RBINDFAIL = 0x0d;
export const ESME_RINVPASWD = 0x0e;
export const ESME_RINVSYSID = 0x0f;
export const ESME_RMSGQFUL = 0x14;
export const ESME_RTHROTTLED = 0x58;
/** Our temporary failure to take a deliver_sm (the receipt could not be stored): the SMSC delivers it again. */
export const ESME_RX_T_APPN = 0x64;

const table: Array<[number, string, boolean]> = [
  [0x00, "ESME_ROK", false],
  [0x01, "ESME_RINVMSGLEN", false],
  [0x02, "ESME_RINVCMDLEN", false],
  [0x03, "ESME_RINVCMDID", false],
  [0x04, "ESME_RINVBNDSTS", true], // we were not bound (e.g. mid-rebind): fine after the next bind
  [0x05, "ESME_RALYBND", true],
  [0x06, "ESME_RINVPRTFLG", false],
  [0x07, "ESME_RINVREGDLVFLG", false],
  [0x08, "ESME_RSYSERR", true],
  [0x0a, "ESME_RINVSRCADR", false],
  [0x0b, "ESME_RINVDSTADR", false],
  [0x0c, "ESME_RINVMSGID", false],
  [0x0d, "ESME_RBINDFAIL", false],
  [0x0e, "ESME_RINVPASWD", false],
  [0x0f, "ESME_RINVSYSID", false],
  [0x11, "ESME_RCANCELFAIL", false],
  [0x13, "ESME_RREPLACEFAIL", false],
  [0x14, "ESME_RMSGQFUL", true],
  [0x15, "ESME_RINVSERTYP", false],
  [0x33, "ESME_RINVNUMDESTS", false],
  [0x34, "ESME_RINVDLNAME", false],
  [0x40, "ESME_RINVDESTFLAG", false],
  [0x42, "ESME_RINVSUBREP", false],
  [0x43, "ESME_RINVESMCLASS", false],
  [0x44, "ESME_RCNTSUBDL", false],
  [0x45, "ESME_RSUBMITFAIL", true],
  [0x48, "ESME_RINVSRCTON", false],
  [0x49, "ESME_RINVSRCNPI", false],
  [0x50, "ESME_RINVDSTTON", false],
  [0x51, "ESME_RINVDSTNPI", false],
  [0x53, "ESME_RINVSYSTYP", false],
  [0x54, "ESME_RINVREPFLAG", false],
  [0x55, "ESME_RINVNUMMSGS", false],
  [0x58, "ESME_RTHROTTLED", true],
  [0x61, "ESME_RINVSCHED", false],
  [0x62, "ESME_RINVEXPIRY", false],
  [0x63, "ESME_RINVDFTMSGID", false],
  [0x64, "ESME_RX_T_APPN", true],
  [0x65, "ESME_RX_P_APPN", false],
  [0x66, "ESME_RX_R_APPN", false],
  [0x67, "ESME_RQUERYFAIL", false],
  [0xc0, "ESME_RINVTLVSTREAM", false],
  [0xc1, "ESME_RTLVNOTALLWD", false],
  [0xc2, "ESME_RINVTLVLEN", false],
  [0xc3, "ESME_RMISSINGTLV", false],
  [0xc4, "ESME_RINVTLVVAL", false],
  [0xfe, "ESME_RDELIVERYFAILURE", true],
  [0xff, "ESME_RUNKNOWNERR", true],
  // SMPP 5.0 codes some 3.4 SMSCs send anyway
  [0x100, "ESME_RSERTYPUNAUTH", false],
  [0x101, "ESME_RPROHIBITED", false],
  [0x102, "ESME_RSERTYPUNAVAIL", true],
  [0x103, "ESME_RSERTYPDENIED", false],
  [0x104, "ESME_RINVDCS", false],
];

export const SMPP_STATUS: ReadonlyMap<number, SmppStatus> = new Map(
  table.map(([status, code, retryable]) => [status, { code, retryable }]),
);

/**
 * Unknown (vendor-specific, 0x400-0x4FF) codes count as retryable: a rejected submit was not accepted, so a retry
 * cannot duplicate it, while wrongly treating a transient vendor code as permanent would lose the message.
 * The caller's bounded retry policy stops genuinely permanent ones.
 */
export function smppStatus(status: number): SmppStatus {
  return SMPP_STATUS.get(status) ?? { code: `ESME_0x${status.toString(16).padStart(8, "0")}`, retryable: true };
}

export function isThrottleStatus(status: number): boolean {
  return status === ESME_RTHROTTLED || status === ESME_RMSGQFUL;
}
