import { Card, Typography } from "antd";
import type { ReactNode } from "react";

export interface FigureProps {
  label: ReactNode;
  value: ReactNode;
  /** A line under the value (e.g. the counts behind a rate). */
  note?: ReactNode;
  testId: string;
  extra?: ReactNode;
}

/** One headline figure of a dashboard. */
export function Figure({ label, value, note, testId, extra }: FigureProps) {
  return (
    <Card size="small" style={{ height: "100%" }}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <div
        data-testid={testId}
        style={{ fontSize: 24, fontWeight: 600, lineHeight: 1.4, fontVariantNumeric: "tabular-nums" }}
      >
        {value}
      </div>
      {note !== undefined && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={`${testId}-note`}>
          {note}
        </Typography.Text>
      )}
      {extra}
    </Card>
  );
}
