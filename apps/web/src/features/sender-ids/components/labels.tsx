import { Tag } from "antd";
import { FilterSelect } from "../../../components/ListPage";
import { countryName } from "../../../lib/country-name";
import type { Lang } from "../../../lib/storage";
import { SENDER_ID_STATUSES, SenderIdStatus } from "../api";
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

/** The sender-id lists' status filter (the customer's and the back office's). */
export function SenderIdStatusFilter({
  list,
}: {
  list: { filters: { status?: string | undefined }; setFilters: (next: { status?: string | undefined }) => void };
}) {
  const t = messages.useT();
  return (
    <FilterSelect
      list={list}
      name="status"
      placeholder={t("list.allStatus")}
      label={t("col.status")}
      width={180}
      options={SENDER_ID_STATUSES.map((s) => ({ value: String(s), label: t(`status.${s}` as SenderIdMessageKey) }))}
      testId="sender-id-status-filter"
    />
  );
}
