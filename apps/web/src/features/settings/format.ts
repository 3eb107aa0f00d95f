import dayjs from "dayjs";

/** An ISO timestamp as local date and time, "-" when absent. */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dayjs(iso).format("YYYY-MM-DD HH:mm:ss") : "-";
}
