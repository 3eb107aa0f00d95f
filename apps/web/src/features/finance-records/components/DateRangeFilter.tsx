import { DatePicker } from "antd";
import dayjs from "dayjs";
import { messages } from "../messages";

const DAY = "YYYY-MM-DD";

/** The URL keeps days (YYYY-MM-DD); the API wants instants: the local start of `from` and end of `to`. */
export function dateRangeParams(filters: { from?: string; to?: string }): { from?: string; to?: string } {
  const out: { from?: string; to?: string } = {};
  const from = filters.from ? dayjs(filters.from, DAY, true) : null;
  const to = filters.to ? dayjs(filters.to, DAY, true) : null;
  if (from?.isValid()) out.from = from.startOf("day").format();
  if (to?.isValid()) out.to = to.endOf("day").format("YYYY-MM-DDTHH:mm:ss.SSSZ");
  return out;
}

export function DateRangeFilter({
  from,
  to,
  onChange,
}: {
  from: string | undefined;
  to: string | undefined;
  onChange: (range: { from?: string; to?: string }) => void;
}) {
  const t = messages.useT();
  const value: [dayjs.Dayjs | null, dayjs.Dayjs | null] = [from ? dayjs(from, DAY) : null, to ? dayjs(to, DAY) : null];
  return (
    <DatePicker.RangePicker
      aria-label={t("filter.dates")}
      value={value}
      allowEmpty={[true, true]}
      onChange={(range) =>
        onChange({ from: range?.[0]?.format(DAY) ?? undefined, to: range?.[1]?.format(DAY) ?? undefined })
      }
      data-testid="filter-dates"
    />
  );
}
