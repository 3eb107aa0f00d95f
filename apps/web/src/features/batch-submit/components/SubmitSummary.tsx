import type { CountrySummary, SubmitPreResult } from "@switchboard/contracts";
import { Alert, Descriptions, Table, Tag, Typography } from "antd";
import { formatMoney, formatNumber, formatPrice } from "../../../lib/format";
import { useOptionalSession } from "../../auth/context/session-context";
import { messages } from "../messages";

/** The pre-submit check's answer: counts, units, per-country prices, cost against balance, authentication. */
export function SubmitSummary({ result }: { result: SubmitPreResult }) {
  const t = messages.useT();
  const currency = useOptionalSession()?.user.currency;
  const encoding = result.encoding === null ? null : result.encoding === "gsm7" ? "GSM-7" : "UCS-2";
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
            label: t("summary.authAllowed"),
            children: result.authenticationAllowed ? (
              <Tag color="success">{t("summary.authAllowed")}</Tag>
            ) : (
              <Tag color="error">{result.authenticationReason ?? t("summary.authBlocked")}</Tag>
            ),
          },
        ]}
      />
      <Table<CountrySummary>
        size="small"
        style={{ marginTop: 12 }}
        rowKey="countryCode"
        pagination={result.countries.length > 10 ? { pageSize: 10, size: "small" } : false}
        dataSource={result.countries}
        locale={{ emptyText: t("summary.noCountries") }}
        columns={[
          { key: "country", title: t("summary.country"), dataIndex: "countryCode" },
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
          { key: "cost", title: t("summary.cost"), align: "right", render: (_, row) => formatMoney(row.cost) },
        ]}
      />
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
