import { Progress, Typography } from "antd";
import { formatNumber } from "../../../lib/format";
import { messages } from "../messages";
import { type ProgressInfo, type ProgressRowFields, progressOf, statusKey } from "../status";

/**
 * Ingest progress while a file is read, then sent of valid recipients; a batch that ended without sending
 * everything well (rejected, terminated, failed, cancelled) says so in red, never as a full green bar.
 */
export function BatchProgress({ batch, compact = false }: { batch: ProgressRowFields; compact?: boolean }) {
  const t = messages.useT();
  const p = progressOf(batch);
  const label = progressLabel(t, p, batch.status);
  return (
    <div
      data-testid="batch-progress"
      data-percent={p.percent}
      data-phase={p.phase}
      data-state={p.state}
      style={{ minWidth: 140 }}
    >
      <Progress
        percent={p.percent}
        status={p.state}
        size="small"
        aria-label={label}
        format={(percent) => `${percent ?? 0}%`}
      />
      <Typography.Text type={p.phase === "ended" ? "danger" : "secondary"} style={{ fontSize: compact ? 12 : 14 }}>
        {label}
      </Typography.Text>
    </div>
  );
}

function progressLabel(t: ReturnType<typeof messages.useT>, p: ProgressInfo, status: number): string {
  const counts = { done: formatNumber(p.done), total: formatNumber(p.total) };
  if (p.phase === "ingesting") return t("progress.ingesting", counts);
  if (p.phase === "sending") return t("progress.sending", counts);
  const key = statusKey(status);
  const name = key ? t(key) : t("status.unknown", { code: status });
  if (p.done === 0) return t("progress.endedNothing", { status: name });
  if (p.failed > 0) return t("progress.endedFailed", { status: name, ...counts, failed: formatNumber(p.failed) });
  return t("progress.ended", { status: name, ...counts });
}
