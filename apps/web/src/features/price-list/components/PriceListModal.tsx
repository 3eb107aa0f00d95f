import { CATEGORY_PRICES, type UserProductPriceItem } from "@switchboard/contracts";
import { ProductCode } from "@switchboard/contracts/codes";
import { Button, Input, Modal, Segmented, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { errorText } from "../../../lib/error-text";
import { formatPrice } from "../../../lib/format";
import { usePriceList } from "../api";
import { messages } from "../messages";

const PAGE_SIZE = 10;

export interface PriceListModalProps {
  open: boolean;
  onClose: () => void;
  /** Staff looking at one customer's prices; absent: the signed-in customer's own. */
  userId?: number;
}

/** The customer's effective unit prices per product and country, with search by country (GET /user/product/price). */
export function PriceListModal({ open, onClose, userId }: PriceListModalProps) {
  const t = messages.useT();
  const [keyword, setKeyword] = useState("");
  const [productCode, setProductCode] = useState("all");
  const [page, setPage] = useState(1);

  const query = usePriceList(
    {
      userId,
      keyword: keyword || undefined,
      productCode: productCode === "all" ? undefined : Number(productCode),
      page,
      pageSize: PAGE_SIZE,
    },
    open,
  );

  const currency = query.data?.currency ?? "";
  return (
    <Modal
      open={open}
      title={t("title")}
      onCancel={onClose}
      width={760}
      destroyOnHidden
      footer={
        <Button onClick={onClose} data-testid="price-list-close">
          {t("close")}
        </Button>
      }
    >
      <Space orientation="vertical" style={{ width: "100%" }} size="middle">
        <Space wrap>
          <Segmented<string>
            aria-label={t("product")}
            value={productCode}
            onChange={(v) => {
              setProductCode(v);
              setPage(1);
            }}
            options={[
              { label: t("allProducts"), value: "all" },
              ...Object.values(ProductCode).map((code) => ({ label: productName(code), value: String(code) })),
            ]}
          />
          <Input.Search
            allowClear
            aria-label={t("search")}
            placeholder={t("search")}
            data-testid="price-list-search"
            maxLength={50}
            style={{ width: 300 }}
            onSearch={(v) => {
              setKeyword(v.trim());
              setPage(1);
            }}
          />
        </Space>
        {query.isError ? (
          <Typography.Text type="danger" role="alert">
            {errorText(query.error, t.shell)}{" "}
            <Button size="small" onClick={() => query.refetch()}>
              {t.shell("common.retry")}
            </Button>
          </Typography.Text>
        ) : (
          <Table<UserProductPriceItem>
            data-testid="price-list-table"
            size="small"
            rowKey={(r) => `${r.productId}-${r.countryCode}`}
            loading={query.isFetching}
            dataSource={query.data?.list ?? []}
            locale={{ emptyText: t("empty") }}
            pagination={{
              current: page,
              pageSize: PAGE_SIZE,
              total: query.data?.total ?? 0,
              showSizeChanger: false,
              onChange: setPage,
            }}
            columns={[
              {
                title: t("product"),
                key: "product",
                render: (_, r) => (
                  <span>
                    {r.productName} <Tag>{productName(r.productCode)}</Tag>
                  </span>
                ),
              },
              {
                title: t("country"),
                key: "country",
                render: (_, r) => `${r.countryName} (${r.countryCode})`,
              },
              { title: t("dialCode"), dataIndex: "dialCode", key: "dialCode", render: (v: string) => `+${v}` },
              {
                title: `${t("unitPrice")}${currency ? ` (${currency})` : ""}`,
                key: "unitPrice",
                align: "right",
                render: (_, r) => (
                  <>
                    <span data-testid="price-list-price">{formatPrice(r.unitPrice)}</span>
                    {r.marketingPrice !== undefined && (
                      // WS: WhatsApp bills a template message by its category
                      <div data-testid="price-list-categories">
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          {CATEGORY_PRICES.map((f) => `${t(f)} ${formatPrice(r[f] ?? r.unitPrice)}`).join(" · ")}
                        </Typography.Text>
                      </div>
                    )}
                  </>
                ),
              },
              {
                title: t("source"),
                key: "source",
                render: (_, r) =>
                  r.source === "customer" ? <Tag color="blue">{t("source.customer")}</Tag> : t("source.default"),
              },
            ]}
          />
        )}
        <Typography.Text type="secondary">{t("unitNote")}</Typography.Text>
      </Space>
    </Modal>
  );
}

function productName(code: number): string {
  return code === ProductCode.RCS
    ? "RCS"
    : code === ProductCode.WS
      ? "WS"
      : code === ProductCode.SMS
        ? "SMS"
        : String(code);
}
