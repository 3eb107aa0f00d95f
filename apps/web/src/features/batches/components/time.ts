import dayjs from "dayjs";

/** An ISO time as local "YYYY-MM-DD HH:mm:ss", or "-" when absent. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "-";
  const d = dayjs(iso);
  return d.isValid() ? d.format("YYYY-MM-DD HH:mm:ss") : "-";
}
