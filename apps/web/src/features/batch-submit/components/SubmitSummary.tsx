import { type CountrySummary, type RejectedSample, RejectReason, type SubmitPreResult } from "@switchboard/contracts";
import { Alert, Descriptions, Table, Tag, Typography } from "antd";
import { countryName } from "../../../lib/country-name";
import { formatMoney, formatNumber, formatPrice } from "../../../lib/format";
import { useOptionalSession } from "../../auth/context/session-context";
import { messages } from "../messages";

const REJECT_KEYS = {
  [RejectReason.INVALID]: "reject.1",
  [RejectReason.DUPLICATE]: "reject.2",
  [RejectReason.MISSING_VARIABLE]: "reject.6",
  [RejectReason.FILLED_TOO_LONG]: "reject.7",
} as const;

/** The inputs the check refused (the caller's own, at most the contract's sample) and why, translated. */
function RejectedNumbers({ result }: { result: SubmitPreResult }) {
  const t = messages.useT();
  const total = result.invalid + result.duplicate + (result.unfilled ?? 0);
  if (result.rejected.length === 0) return null;
  const reason = (code: number) =>
    code in REJECT_KEYS ? t(REJECT_KEYS[code as keyof typeof REJECT_KEYS]) : t("reject.unknown", { code });
  return (
    <section data-testid="summary-rejected" style={{ marginTop: 12 }}>
      <Typography.Text strong>{t("summary.rejected")}</Typography.Text>
      {total > result.rejected.length && (
        <Typography.Text type="secondary" style={{ marginInlineStart: 8 }} data-testid="summary-rejected-count">
          {t("summary.rejectedCount", { shown: formatNumber(result.rejected.length), total: formatNumber(total) })}
        </Typography.Text>
      )}
      <Table<RejectedSample & { index: number }>
        size="small"
        style={{ marginTop: 8 }}
        rowKey="index"
        dataSource={result.rejected.map((r, index) => ({ ...r, index }))}
        pagination={result.rejected.length > 10 ? { pageSize: 10, size: "small" } : false}
        columns={[
          {
            key: "raw",
            title: t("summary.rejectedNumber"),
            render: (_, row) => <Typography.Text code>{row.raw}</Typography.Text>,
          },
          {
            key: "reason",
            title: t("summary.rejectedReason"),
            render: (_, row) => (
              <Tag color={row.reason === RejectReason.INVALID ? "error" : "warning"} data-testid="rejected-reason">
                {reason(row.reason)}
              </Tag>
            ),
          },
        ]}
      />
    </section>
  );
}

/**
 * The pre-submit check's answer: counts with the refused numbers and why, units, per-country prices (country
 * names in the reader's language), cost against balance, authentication.
 */
export function SubmitSummary({ result }: { result: SubmitPreResult }) {
  const t = messages.useT();
  const currency = useOptionalSession()?.user.currency;
  const encoding = result.encoding === null ? null : result.encoding === "gsm7" ? "GSM-7" : "UCS-2";
  // RCS with a fallback text: each number is charged the larger price, the carrying channel's is kept.
  const withFallback = result.countries.some((c) => c.fallbackPrice !== null);
  return (
    <section data-testid="task-summary" aria-label={t("summary.title")}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t("summary.title")}
      </Typography.Title>
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, sm: 2, md: 3 }}
        items={[
          { key: "total", label: t("summary.total"), children: formatNumber(result.total) },
          { key: "valid", label: t("summary.valid"), children: formatNumber(result.valid) },
          { key: "invalid", label: t("summary.invalid"), children: formatNumber(result.invalid) },
          { key: "duplicate", label: t("summary.duplicate"), children: formatNumber(result.duplicate) },
          { key: "notServed", label: t("summary.notServed"), children: formatNumber(result.notServed) },
          ...((result.optOut ?? 0) > 0
            ? [
                {
                  key: "optOut",
                  label: t("summary.optOut"),
                  children: <span data-testid="summary-opt-out">{formatNumber(result.optOut ?? 0)}</span>,
                },
              ]
            : []),
          ...(result.windowClosed > 0
            ? [
                {
                  key: "windowClosed",
                  label: t("summary.windowClosed"),
                  children: <span data-testid="summary-window-closed">{formatNumber(result.windowClosed)}</span>,
                },
              ]
            : []),
          {
            key: "segments",
            label: t("summary.segments"),
            children: encoding ? `${formatNumber(result.segments)} · ${encoding}` : formatNumber(result.segments),
          },
          // Personalised campaigns: what the file offers to fill, and what the filled messages come to.
          ...(result.variables !== undefined && result.variables.length > 0
            ? [
                {
                  key: "variables",
                  label: t("summary.variables"),
                  children: (
                    <span data-testid="summary-variables" title={t("summary.variablesHint")}>
                      {result.variables.map((v) => (
                        <Tag key={v}>{`{{${v}}}`}</Tag>
                      ))}
                    </span>
                  ),
                },
              ]
            : []),
          ...(result.segmentsMax !== undefined && result.segmentsTotal !== undefined && result.valid > 0
            ? [
                {
                  key: "segmentsFilled",
                  label: t("summary.segmentsFilled"),
                  children: (
                    <span data-testid="summary-segments-filled">
                      {`${formatNumber(result.segmentsMax)} / ${formatNumber(result.segmentsTotal)}`}
                    </span>
                  ),
                },
              ]
            : []),
          ...((result.unfilled ?? 0) > 0
            ? [
                {
                  key: "unfilled",
                  label: t("summary.unfilled"),
                  children: <span data-testid="summary-unfilled">{formatNumber(result.unfilled ?? 0)}</span>,
                },
              ]
            : []),
          {
            key: "cost",
            label: t("summary.totalCost"),
            children: <Typography.Text strong>{formatMoney(result.totalCost, { currency })}</Typography.Text>,
          },
          {
            key: "balance",
            label: t("summary.balance"),
            children: (
              <>
                {formatMoney(result.balance, { currency })}{" "}
                <Tag color={result.sufficient ? "success" : "error"}>
                  {t(result.sufficient ? "summary.sufficient" : "summary.insufficient")}
                </Tag>
              </>
            ),
          },
          {
            key: "auth",
            label: t("summary.auth"),
            children: result.authenticationAllowed ? (
              <Tag color="success" data-testid="summary-auth">
                {t("summary.authAllowed")}
              </Tag>
            ) : (
              <Tag color="error" data-testid="summary-auth">
                {result.authenticationReason ?? t("summary.authBlocked")}
              </Tag>
            ),
          },
        ]}
      />
      <RejectedNumbers result={result} />
      <Table<CountrySummary>
        size="small"
        style={{ marginTop: 12 }}
        rowKey="countryCode"
        pagination={result.countries.length > 10 ? { pageSize: 10, size: "small" } : false}
        dataSource={result.countries}
        locale={{ emptyText: t("summary.noCountries") }}
        columns={[
          {
            key: "country",
            title: t("summary.country"),
            render: (_, row) => (
              <span data-testid="summary-country">
                {t("summary.countryName", { name: countryName(row.countryCode, t.lang), code: row.countryCode })}
              </span>
            ),
          },
          {
            key: "count",
            title: t("summary.count"),
            align: "right",
            render: (_, row) => formatNumber(row.count),
          },
          {
            key: "unitPrice",
            title: t("summary.unitPrice"),
            align: "right",
            render: (_, row) =>
              row.served ? (
                formatPrice(row.unitPrice)
              ) : (
                <Typography.Text type="warning">
                  {t("summary.notServedReason", { reason: row.reason ?? "-" })}
                </Typography.Text>
              ),
          },
          ...(withFallback
            ? [
                {
                  key: "fallbackPrice",
                  title: t("summary.fallbackPrice"),
                  align: "right" as const,
                  render: (_: unknown, row: CountrySummary) =>
                    row.fallbackPrice === null ? "-" : formatPrice(row.fallbackPrice),
                },
              ]
            : []),
          { key: "cost", title: t("summary.cost"), align: "right", render: (_, row) => formatMoney(row.cost) },
        ]}
      />
      {withFallback && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }} data-testid="summary-fallback-note">
          {t("summary.fallbackNote")}
        </Typography.Paragraph>
      )}
      {result.windowClosed > 0 && (
        <Alert
          style={{ marginTop: 12 }}
          type="warning"
          showIcon
          data-testid="summary-window-closed-note"
          title={t("summary.windowClosedNote", { count: formatNumber(result.windowClosed) })}
        />
      )}
      {result.reviewRequired && <Alert style={{ marginTop: 12 }} type="info" showIcon title={t("summary.review")} />}
    </section>
  );
}
