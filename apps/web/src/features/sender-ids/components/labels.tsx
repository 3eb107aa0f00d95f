import { Tag } from "antd";
import { countryName } from "../../../lib/country-name";
import type { Lang } from "../../../lib/storage";
import { SenderIdStatus } from "../api";
import { messages, type SenderIdMessageKey } from "../messages";

const STATUS_COLOR: Record<number, string> = {
  [SenderIdStatus.REQUESTED]: "processing",
  [SenderIdStatus.APPROVED]: "success",
  [SenderIdStatus.REJECTED]: "error",
  [SenderIdStatus.REVOKED]: "default",
};

export function SenderIdStatusTag({ status }: { status: number }) {
  const t = messages.useT();
  return (
    <Tag color={STATUS_COLOR[status] ?? "default"} data-testid={`sender-id-status-${status}`}>
      {t(`status.${status}` as SenderIdMessageKey)}
    </Tag>
  );
}

/** A row's country: its name in the reader's language with the code, or "all countries". */
export function countryText(code: string | null, lang: Lang, all: string): string {
  return code === null ? all : `${countryName(code, lang)} (${code})`;
}
