import { Progress, Typography } from "antd";
import { formatNumber } from "../../../lib/format";
import { messages } from "../messages";
import { type ProgressRowFields, progressOf } from "../status";

/** Ingest progress while a file is read, then sent of valid recipients. */
export function BatchProgress({ batch, compact = false }: { batch: ProgressRowFields; compact?: boolean }) {
  const t = messages.useT();
  const p = progressOf(batch);
  const label = t(p.phase === "ingesting" ? "progress.ingesting" : "progress.sending", {
    done: formatNumber(p.done),
    total: formatNumber(p.total),
  });
  return (
    <div data-testid="batch-progress" data-percent={p.percent} data-phase={p.phase} style={{ minWidth: 140 }}>
      <Progress
        percent={p.percent}
        status={p.state}
        size="small"
        aria-label={label}
        format={(percent) => `${percent ?? 0}%`}
      />
      <Typography.Text type="secondary" style={{ fontSize: compact ? 12 : 14 }}>
        {label}
      </Typography.Text>
    </div>
  );
}
