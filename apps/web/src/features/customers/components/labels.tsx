import { AccountStatus, AuthStatus, RemittanceStatus } from "@switchboard/contracts/codes";
import { Tag, Typography } from "antd";
import { formatMoney } from "../../../lib/format";
import { type CustomerMessageKey, messages } from "../messages";

type T = ReturnType<typeof messages.useT>;

/** "auth.2" style keys from a code; unknown codes show the number. */
export function codeLabel(t: T, prefix: string, code: number | string): string {
  const key = `${prefix}.${code}` as CustomerMessageKey;
  const text = t(key);
  return text === undefined ? String(code) : text;
}

export function AccountStatusTag({ status }: { status: number }) {
  const t = messages.useT();
  return <Tag color={status === AccountStatus.FROZEN ? "red" : "green"}>{codeLabel(t, "status", status)}</Tag>;
}

const AUTH_COLORS: Record<number, string> = {
  [AuthStatus.NOT_AUTHENTICATED]: "default",
  [AuthStatus.AUTHENTICATING]: "processing",
  [AuthStatus.AUTHENTICATED]: "green",
  [AuthStatus.REJECTED]: "red",
};

export function AuthStatusTag({ status }: { status: number }) {
  const t = messages.useT();
  return <Tag color={AUTH_COLORS[status] ?? "default"}>{codeLabel(t, "auth", status)}</Tag>;
}

const REMIT_COLORS: Record<number, string> = {
  [RemittanceStatus.PENDING]: "processing",
  [RemittanceStatus.CONFIRMED]: "green",
  [RemittanceStatus.REJECTED]: "red",
};

export function RemitStatusTag({ status }: { status: number }) {
  const t = messages.useT();
  return <Tag color={REMIT_COLORS[status] ?? "default"}>{codeLabel(t, "remitStatus", status)}</Tag>;
}

/** A signed amount: credits green with a plus, debits red. */
export function SignedMoney({ value }: { value: string }) {
  const negative = value.trim().startsWith("-");
  const text = formatMoney(value);
  return <Typography.Text type={negative ? "danger" : "success"}>{negative ? text : `+${text}`}</Typography.Text>;
}

export function formatTime(value: string | null | undefined): string {
  if (!value) return "-";
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(
    d.getMinutes(),
  )}:${pad(d.getSeconds())}`;
}

export const PRODUCT_NAMES: Record<number, string> = { 1000: "RCS", 2000: "WS", 3000: "SMS" };
