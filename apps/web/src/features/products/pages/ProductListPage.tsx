import type { ProductItem } from "@switchboard/contracts";
import { ActiveStatus, ProductCode } from "@switchboard/contracts/codes";
import { App, Button, Popconfirm, Space, Tabs, Tag } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { FilterSelect, ListToolbar, PagedTable, ResetButton, SearchBox } from "../../../components/ListPage";
import { PageContainer } from "../../../components/PageContainer";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { useListFilters } from "../../../hooks/use-list-filters";
import { useSearchParamSetter } from "../../../hooks/use-url-filters";
import { useProductMutation, useProducts } from "../api";
import { useScopeSummary } from "../components/CountryScopeFields";
import { PricesPanel } from "../components/PricesPanel";
import { ProductCountriesModal, ProductFormModal } from "../components/ProductModals";
import { messages } from "../messages";

type ProductFilters = { code?: string; status?: string; keyword?: string };
type Dialog = { kind: "create" } | { kind: "edit"; product: ProductItem } | { kind: "countries"; product: ProductItem };

function ProductsPanel({ onPrices }: { onPrices: (p: ProductItem) => void }) {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const list = useListFilters<ProductFilters>(["code", "status", "keyword"]);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const products = useProducts(list.params);
  const status = useProductMutation<{ id: number; status: number }>("/product/status");
  const summary = useScopeSummary();

  async function changeStatus(p: ProductItem, next: number) {
    if (await status.mutateAsync({ id: p.id, status: next }).catch((e: unknown) => showError(e))) {
      message.success(t("statusChanged"));
    }
  }

  return (
    <div data-testid="products-panel">
      <ListToolbar
        actions={
          <Button type="primary" onClick={() => setDialog({ kind: "create" })} data-testid="product-create">
            {t("action.create")}
          </Button>
        }
      >
        <FilterSelect
          list={list}
          name="code"
          placeholder={t("filter.code")}
          width={140}
          options={Object.values(ProductCode).map((c) => ({ value: String(c), label: t(`code.${c}`) }))}
        />
        <FilterSelect
          list={list}
          name="status"
          placeholder={t("filter.status")}
          width={120}
          options={Object.values(ActiveStatus).map((s) => ({ value: String(s), label: t(`status.${s}`) }))}
        />
        <SearchBox search={list.search} placeholder={t("filter.keyword")} width={220} />
        <ResetButton onReset={list.reset} />
      </ListToolbar>
      <PagedTable<ProductItem>
        query={products}
        paging={list}
        empty={t("empty.products")}
        simpleEmpty
        showSizeChanger
        columns={[
          { title: t("col.name"), dataIndex: "name" },
          {
            title: t("col.code"),
            dataIndex: "code",
            render: (c: number) => <Tag>{t(`code.${c}` as "code.3000")}</Tag>,
          },
          { title: t("col.category"), dataIndex: "category" },
          {
            title: t("col.countries"),
            key: "countries",
            render: (_, p) => <span title={p.countryCodes.join(", ")}>{summary(p.countryScope, p.countryCodes)}</span>,
          },
          {
            title: t("col.defaultChannel"),
            dataIndex: "defaultChannelName",
            render: (n?: string | null) => n ?? t("none"),
          },
          {
            title: t("col.status"),
            dataIndex: "status",
            render: (s: number) => (
              <Tag color={s === ActiveStatus.NORMAL ? "green" : "orange"}>{t(`status.${s}` as "status.1")}</Tag>
            ),
          },
          {
            title: t("col.updatedAt"),
            dataIndex: "updatedAt",
            render: (d: string) => dayjs(d).format("YYYY-MM-DD HH:mm"),
          },
          {
            title: t("col.actions"),
            key: "actions",
            fixed: "right",
            render: (_, p) => (
              <Space size={0} wrap>
                <Button type="link" size="small" onClick={() => setDialog({ kind: "edit", product: p })}>
                  {t("action.edit")}
                </Button>
                <Button type="link" size="small" onClick={() => setDialog({ kind: "countries", product: p })}>
                  {t("action.countries")}
                </Button>
                <Button type="link" size="small" onClick={() => onPrices(p)} data-testid={`product-prices-${p.id}`}>
                  {t("action.prices")}
                </Button>
                {p.status === ActiveStatus.NORMAL ? (
                  <Popconfirm
                    title={t("confirm.pause")}
                    okText={t("ok")}
                    cancelText={t("cancel")}
                    onConfirm={() => changeStatus(p, ActiveStatus.PAUSED)}
                  >
                    <Button type="link" size="small" danger>
                      {t("action.pause")}
                    </Button>
                  </Popconfirm>
                ) : (
                  <Button type="link" size="small" onClick={() => changeStatus(p, ActiveStatus.NORMAL)}>
                    {t("action.resume")}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      {dialog?.kind === "create" && <ProductFormModal onClose={() => setDialog(null)} />}
      {dialog?.kind === "edit" && <ProductFormModal product={dialog.product} onClose={() => setDialog(null)} />}
      {dialog?.kind === "countries" && (
        <ProductCountriesModal product={dialog.product} onClose={() => setDialog(null)} />
      )}
    </div>
  );
}

/**
 * The admin's product/list: products (create, edit, status, the "category and country edit" modal) and
 * their prices. `?customerId=` (the customer list links here) opens that customer's prices directly.
 */
export default function ProductListPage() {
  const t = messages.useT();
  const [search] = useSearchParams();
  const setParam = useSearchParamSetter();
  const tab = search.get("tab") ?? (search.get("customerId") ? "prices" : "products");
  const setTab = (next: string, extra: Record<string, string> = {}) =>
    setParam({ tab: next, page: undefined, ...extra });

  return (
    <PageContainer>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k)}
        destroyOnHidden
        items={[
          {
            key: "products",
            label: t("tab.products"),
            children: <ProductsPanel onPrices={(p) => setTab("prices", { productId: String(p.id) })} />,
          },
          { key: "prices", label: <span data-testid="tab-prices">{t("tab.prices")}</span>, children: <PricesPanel /> },
        ]}
      />
    </PageContainer>
  );
}
