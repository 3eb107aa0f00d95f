// The submit_sm source address (SMPP 3.4 section 5.2.5 TON, 5.2.6 NPI) of a message's sender id.
//
// A customer's sender id (an approved one: docs/sender-ids.md) goes out as its kind says:
//   alphanumeric ("Acme")                          TON 5 alphanumeric      NPI 0 unknown
//   international number ("+447700900123")         TON 1 international     NPI 1 ISDN (E.164), sent without "+"
//   short code (3..8 digits, "72727")              TON 3 network specific  NPI 0 unknown
//   national number ("07700900123", older batches) TON 2 national          NPI 1 ISDN
// Short codes are numbers only inside one network: "network specific" is what SMPP 3.4 offers for them (TON 6
// "abbreviated" is the other reading; our SMSCs take 3). Without a sender id the channel's own default source goes
// with the TON/NPI its admin configured (sourceTon/sourceNpi), except that an alphanumeric one is always TON 5.
import { SenderIdKind, senderIdKind } from "@switchboard/contracts";

/** SMPP 3.4 section 5.2.5. */
export const Ton = {
  UNKNOWN: 0,
  INTERNATIONAL: 1,
  NATIONAL: 2,
  NETWORK_SPECIFIC: 3,
  SUBSCRIBER: 4,
  ALPHANUMERIC: 5,
  ABBREVIATED: 6,
} as const;

/** SMPP 3.4 section 5.2.6 (the values used here). */
export const Npi = { UNKNOWN: 0, ISDN: 1 } as const;

export interface SourceAddress {
  ton: number;
  npi: number;
  addr: string;
}

export interface SourceDefaults {
  defaultSource?: string | undefined;
  sourceTon: number;
  sourceNpi: number;
}

const NATIONAL = /^0\d{8,}$/;

/** The source address of a message sent as `from` (a sender id), or as the channel's default without one. */
export function sourceAddress(from: string | undefined, channel: SourceDefaults): SourceAddress {
  const given = from?.trim();
  if (given) return senderIdAddress(given);
  const source = channel.defaultSource?.trim() ?? "";
  if (source !== "" && senderIdKind(source) === SenderIdKind.ALPHANUMERIC) {
    return { ton: Ton.ALPHANUMERIC, npi: Npi.UNKNOWN, addr: source };
  }
  return { ton: channel.sourceTon, npi: channel.sourceNpi, addr: source.replace(/^\+/, "") };
}

function senderIdAddress(senderId: string): SourceAddress {
  if (NATIONAL.test(senderId)) return { ton: Ton.NATIONAL, npi: Npi.ISDN, addr: senderId };
  switch (senderIdKind(senderId)) {
    case SenderIdKind.ALPHANUMERIC:
      return { ton: Ton.ALPHANUMERIC, npi: Npi.UNKNOWN, addr: senderId };
    case SenderIdKind.INTERNATIONAL:
      return { ton: Ton.INTERNATIONAL, npi: Npi.ISDN, addr: senderId.replace(/^\+/, "") };
    case SenderIdKind.SHORT_CODE:
      return { ton: Ton.NETWORK_SPECIFIC, npi: Npi.UNKNOWN, addr: senderId };
  }
}
