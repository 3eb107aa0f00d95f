import type { PriceItem } from "@switchboard/contracts";
import { CountryScope, PriceAction, UserType } from "@switchboard/contracts/codes";
import { Alert, App, Button, Empty, Input, Popconfirm, Select, Space, Table, Tag, Tooltip, Typography } from "antd";
import { useMemo, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { LoadError } from "../../../components/LoadError";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { useSearchParamSetter } from "../../../hooks/use-url-filters";
import { formatPrice } from "../../../lib/format";
import { useAllProducts, usePriceMutation, usePrices } from "../api";
import { messages } from "../messages";
import { extraPriceFields, PriceFormModal, type PriceFormValues } from "./PriceFormModal";
import { UserPicker } from "./UserPicker";

const PRICE_USER_TYPES = [UserType.AGENT, UserType.USER] as const;

/**
 * A product's prices per served country: the tenant's defaults, or (with a customer or agent chosen) that
 * user's effective prices. The URL keeps productId, customerId (the customer list links here) and the
 * country keyword.
 */
export function PricesPanel() {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const [search] = useSearchParams();
  const setParam = useSearchParamSetter();
  const products = useAllProducts();
  const productList = products.data?.list ?? [];
  const productId = Number(search.get("productId")) || productList[0]?.id;
  const product = productList.find((p) => p.id === productId);
  const customerId = Number(search.get("customerId")) || undefined;
  const [customerLabel, setCustomerLabel] = useState<string | undefined>(search.get("customerName") ?? undefined);
  const keyword = search.get("country") ?? "";
  const [keywordInput, setKeywordInput] = useState(keyword);
  // A new product, customer or keyword starts at page 1.
  const filterKey = `${productId}|${customerId}|${keyword}`;
  const [paging, setPaging] = useState({ key: filterKey, page: 1, pageSize: 20 });
  const page = { page: paging.key === filterKey ? paging.page : 1, pageSize: paging.pageSize };
  const setPage = (next: { page: number; pageSize: number }) => setPaging({ key: filterKey, ...next });
  const [form, setForm] = useState<Partial<PriceFormValues> | null>(null);
  const clear = usePriceMutation();

  const params = useMemo(
    () => ({ productId, userId: customerId, keyword: keyword || undefined, page: page.page, pageSize: page.pageSize }),
    [productId, customerId, keyword, page.page, page.pageSize],
  );
  const prices = usePrices(params, productId !== undefined);
  // The list's own answer names the user when the link carried only its id (a bookmark, an old link).
  const answeredName = prices.data && prices.data.userId === customerId ? prices.data.user : null;
  const knownName = customerLabel ?? answeredName ?? undefined;
  const user = customerId === undefined ? undefined : { id: customerId, label: knownName ?? `#${customerId}` };

  async function clearCountry(row: PriceItem) {
    if (!product) return;
    const body = {
      productId: product.id,
      ...(user ? { userId: user.id } : {}),
      action: PriceAction.CLEAR,
      countryScope: CountryScope.INCLUDE,
      countryCodes: [row.countryCode],
    };
    const result = await clear.mutateAsync(body).catch((e: unknown) => {
      showError(e);
      return null;
    });
    if (result) message.success(t("price.done.2", { count: result.countries }));
  }

  if (products.isError) {
    return <LoadError error={products.error} onRetry={() => products.refetch()} />;
  }

  return (
    <div data-testid="prices-panel">
      <Space wrap style={{ marginBottom: 16 }}>
        <Select<number>
          aria-label={t("price.product")}
          style={{ minWidth: 240 }}
          value={productId}
          loading={products.isLoading}
          placeholder={t("price.product")}
          options={productList.map((p) => ({
            value: p.id,
            label: `${p.name} · ${t(`code.${p.code}` as "code.3000")}`,
          }))}
          onChange={(v) => setParam({ productId: String(v) })}
          data-testid="prices-product"
        />
        <UserPicker
          style={{ minWidth: 260 }}
          allowClear
          types={PRICE_USER_TYPES}
          value={customerId}
          knownLabel={knownName}
          placeholder={t("price.customerPlaceholder")}
          onChange={(id, picked) => {
            setCustomerLabel(picked?.user);
            setParam({ customerId: id === undefined ? undefined : String(id), customerName: undefined });
          }}
          data-testid="prices-customer"
        />
        <Input.Search
          aria-label={t("price.keyword")}
          placeholder={t("price.keyword")}
          allowClear
          value={keywordInput}
          onChange={(e) => setKeywordInput(e.target.value)}
          onSearch={(v) => setParam({ country: v.trim() || undefined })}
          style={{ width: 240 }}
          data-testid="prices-keyword"
        />
        <Button type="primary" disabled={!product} onClick={() => setForm({})} data-testid="prices-set">
          {t("price.set")}
        </Button>
      </Space>
      <Alert
        type="info"
        style={{ marginBottom: 12 }}
        title={user ? t("price.viewing.user", { user: user.label }) : t("price.viewing.default")}
      />
      {prices.isError ? (
        <LoadError error={prices.error} onRetry={() => prices.refetch()} />
      ) : (
        <Table<PriceItem>
          rowKey="countryCode"
          size="middle"
          loading={products.isLoading || prices.isFetching}
          dataSource={prices.data?.list ?? []}
          locale={{
            emptyText: (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={productId === undefined ? t("price.selectProduct") : t("price.empty")}
              />
            ),
          }}
          pagination={{
            current: page.page,
            pageSize: page.pageSize,
            total: prices.data?.total ?? 0,
            showSizeChanger: true,
            onChange: (p, s) => setPage({ page: p, pageSize: s }),
          }}
          columns={[
            {
              title: t("price.col.country"),
              dataIndex: "countryName",
              render: (name: string, r) => `${name} (${r.countryCode})`,
            },
            {
              title: t("price.col.dialCode"),
              dataIndex: "dialCode",
              render: (d: string) => `+${d.replace(/^\+/, "")}`,
            },
            {
              title: `${t("price.col.unitPrice")} (${prices.data?.currency ?? ""})`,
              dataIndex: "unitPrice",
              align: "right",
              render: (v: string | null) =>
                v === null ? <Typography.Text type="secondary">{t("price.noPrice")}</Typography.Text> : formatPrice(v),
            },
            ...extraPriceFields(product?.code ?? 0).map((field) => ({
              title:
                field === "screeningPrice" ? (
                  `${t("price.col.screeningPrice")} (${prices.data?.currency ?? ""})`
                ) : (
                  <Tooltip title={t("price.col.categoryHint")}>{t(`price.col.${field}`)}</Tooltip>
                ),
              dataIndex: field,
              align: "right" as const,
              render: (v: string | null | undefined) => (v ? formatPrice(v) : "-"),
            })),
            {
              title: t("price.col.source"),
              dataIndex: "source",
              render: (s: PriceItem["source"]) =>
                s === null ? "-" : <Tag color={s === "customer" ? "blue" : undefined}>{t(`price.source.${s}`)}</Tag>,
            },
            {
              title: t("col.actions"),
              key: "actions",
              render: (_, r) => {
                const clearable = user ? r.source === "customer" : r.unitPrice !== null;
                return (
                  <Space>
                    <Button
                      size="small"
                      type="link"
                      onClick={() =>
                        setForm({
                          countryScope: CountryScope.INCLUDE,
                          countryCodes: [r.countryCode],
                          unitPrice: r.unitPrice ?? undefined,
                          ...Object.fromEntries(
                            extraPriceFields(product?.code ?? 0).map((f) => [f, r[f] ?? undefined]),
                          ),
                        })
                      }
                      data-testid={`price-set-${r.countryCode}`}
                    >
                      {t("price.setCountry")}
                    </Button>
                    {clearable && (
                      <Popconfirm
                        title={t("price.confirmClear", { country: r.countryName })}
                        onConfirm={() => clearCountry(r)}
                        okText={t("ok")}
                        cancelText={t("cancel")}
                      >
                        <Button size="small" type="link" danger data-testid={`price-clear-${r.countryCode}`}>
                          {t("price.clearCountry")}
                        </Button>
                      </Popconfirm>
                    )}
                  </Space>
                );
              },
            },
          ]}
        />
      )}
      {form && product && (
        <PriceFormModal
          open
          product={product}
          user={user}
          currency={prices.data?.currency ?? ""}
          initial={form}
          onClose={() => setForm(null)}
        />
      )}
    </div>
  );
}
