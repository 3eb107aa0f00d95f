import { describe, expect, it } from "vitest";
import {
  canonicalMessageId,
  messageIdVariants,
  parseDeliveryReceipt,
  parseReceiptText,
  receiptStatus,
  resolveReceiptMessageId,
  toDeliveryReport,
} from "../src/smpp/receipt";

const TEXT =
  "id:0123456789 sub:001 dlvrd:001 submit date:2511201530 done date:2511201531 stat:DELIVRD err:000 text:Hello id:x";

describe("parseReceiptText", () => {
  it("reads every field of the Appendix B form", () => {
    expect(parseReceiptText(TEXT)).toEqual({
      id: "0123456789",
      sub: "001",
      dlvrd: "001",
      submitDate: new Date(Date.UTC(2025, 10, 20, 15, 30)),
      doneDate: new Date(Date.UTC(2025, 10, 20, 15, 31)),
      stat: "DELIVRD",
      err: "000",
      text: "Hello id:x",
    });
  });

  it("accepts seconds in dates, other key case, and missing fields", () => {
    const parsed = parseReceiptText("ID:abc Done Date:251120153107 Stat:undeliv Err:034");
    expect(parsed).toEqual({
      id: "abc",
      doneDate: new Date(Date.UTC(2025, 10, 20, 15, 31, 7)),
      stat: "UNDELIV",
      err: "034",
    });
  });

  it("ignores malformed dates and rejects text that is no receipt", () => {
    expect(parseReceiptText("id:1 done date:2513991200 stat:DELIVRD")?.doneDate).toBeUndefined();
    expect(parseReceiptText("hello there")).toBeNull();
  });
});

describe("parseDeliveryReceipt / toDeliveryReport", () => {
  const ids = { messageIdFormat: "as-is" as const };

  it("reads the text form", () => {
    const parsed = parseDeliveryReceipt({ esm_class: 0x04, short_message: { message: TEXT } });
    expect(toDeliveryReport(parsed!, ids)).toEqual({
      providerMessageId: "0123456789",
      status: "delivered",
      doneAt: new Date(Date.UTC(2025, 10, 20, 15, 31)),
    });
  });

  it("reads the TLV form, which wins over the text", () => {
    const parsed = parseDeliveryReceipt({
      esm_class: 0x04,
      short_message: { message: "" },
      receipted_message_id: "ABC123",
      message_state: 5,
      network_error_code: Buffer.from([0x03, 0x00, 0x22]),
    });
    expect(toDeliveryReport(parsed!, ids)).toEqual({
      providerMessageId: "ABC123",
      status: "undelivered",
      errorCode: "3:34",
    });
    const both = parseDeliveryReceipt({
      esm_class: 0x04,
      short_message: { message: TEXT.replace("DELIVRD", "UNDELIV").replace("err:000", "err:001") },
      receipted_message_id: "0123456789",
      message_state: 2,
    });
    expect(toDeliveryReport(both!, ids)).toMatchObject({ status: "delivered", errorCode: "001" });
  });

  it("reads the text from message_payload when short_message is empty", () => {
    const parsed = parseDeliveryReceipt({
      esm_class: 0x04,
      short_message: { message: "" },
      message_payload: { message: Buffer.from("id:77 stat:EXPIRED err:000") },
    });
    expect(toDeliveryReport(parsed!, ids)).toEqual({ providerMessageId: "77", status: "expired" });
  });

  it("is not a receipt without esm_class 0x04 or without any id", () => {
    expect(parseDeliveryReceipt({ esm_class: 0, short_message: { message: TEXT } })).toBeNull();
    expect(parseDeliveryReceipt({ esm_class: 0x04, short_message: { message: "stat:DELIVRD" } })).toBeNull();
  });

  it("maps statuses in one place, unknown ones to unknown", () => {
    expect(receiptStatus("DELIVRD", undefined)).toBe("delivered");
    expect(receiptStatus("UNDELIV", undefined)).toBe("undelivered");
    expect(receiptStatus("EXPIRED", undefined)).toBe("expired");
    expect(receiptStatus("REJECTD", undefined)).toBe("rejected");
    expect(receiptStatus("ACCEPTD", undefined)).toBe("unknown");
    expect(receiptStatus("ENROUTE", undefined)).toBe("unknown");
    expect(receiptStatus("WHATEVER", undefined)).toBe("unknown");
    expect(receiptStatus(undefined, undefined)).toBe("unknown");
    expect(receiptStatus("DELIVRD", 8)).toBe("rejected");
    expect(receiptStatus(undefined, 6)).toBe("unknown");
    const parsed = parseDeliveryReceipt({ esm_class: 0x04, short_message: { message: "id:9 stat:DELETED err:000" } });
    expect(toDeliveryReport(parsed!, ids)?.status).toBe("unknown");
  });
});

describe("message ids in two bases", () => {
  it("canonicalises send() ids per configured base", () => {
    expect(canonicalMessageId("000123", "decimal")).toBe("123");
    expect(canonicalMessageId("00a1b2", "hex")).toBe("A1B2");
    expect(canonicalMessageId("00a1b2", "as-is")).toBe("00a1b2");
    expect(canonicalMessageId("not-a-number", "hex")).toBe("not-a-number");
  });

  it("matches a hex receipt to a decimal submit id and vice versa", () => {
    // submit_sm_resp said 305419896 (decimal); the receipt quotes 12345678 (hex of it, no letters) in the text
    // and the decimal in the TLV, or the other way round.
    const decimal = { messageIdFormat: "decimal" as const };
    expect(resolveReceiptMessageId("305419896", "12345678", decimal)).toBe("305419896");
    expect(resolveReceiptMessageId("12345678", "305419896", decimal)).toBe("305419896");
    expect(resolveReceiptMessageId(undefined, "1D3F", decimal)).toBe("7487");
    expect(resolveReceiptMessageId(undefined, "0007487", decimal)).toBe("7487");

    const hex = { messageIdFormat: "hex" as const };
    expect(resolveReceiptMessageId("12345678", "305419896", hex)).toBe("12345678");
    expect(resolveReceiptMessageId("305419896", "12345678", hex)).toBe("12345678");
    expect(resolveReceiptMessageId(undefined, "00001d3f", hex)).toBe("1D3F");
    // A lone all-digit id is read in the configured base unless receiptIdFormat says otherwise.
    expect(resolveReceiptMessageId(undefined, "7487", hex)).toBe("7487");
    expect(resolveReceiptMessageId(undefined, "7487", { ...hex, receiptIdFormat: "decimal" })).toBe("1D3F");
  });

  it("leaves as-is ids alone, TLV first", () => {
    expect(resolveReceiptMessageId("abc", "xyz", { messageIdFormat: "as-is" })).toBe("abc");
    expect(resolveReceiptMessageId(undefined, "xyz", { messageIdFormat: "as-is" })).toBe("xyz");
    expect(resolveReceiptMessageId(undefined, undefined, { messageIdFormat: "hex" })).toBeUndefined();
  });

  it("lists every spelling for lookups", () => {
    expect(messageIdVariants("0255").sort()).toEqual(["0255", "255", "597", "FF"].sort());
    expect(messageIdVariants("ff")).toEqual(["ff", "FF", "255"]);
    expect(messageIdVariants("msg-1")).toEqual(["msg-1"]);
  });
});
