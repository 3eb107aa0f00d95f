import type { ProductItem } from "@switchboard/contracts";
import { CountryScope, ProductCode } from "@switchboard/contracts/codes";
import { Alert, App, Button, Form, Input, Modal, Select } from "antd";
import { errorText } from "../../../lib/error-text";
import { useProductMutation } from "../api";
import { messages } from "../messages";
import { CountryScopeFields } from "./CountryScopeFields";

interface ProductFormValues {
  code?: number;
  name?: string;
  category?: string;
  countryScope?: number;
  countryCodes?: string[];
}

function useTextRules() {
  const t = messages.useT();
  return (field: "field.name" | "field.category") => [
    { required: true, whitespace: true, message: t("field.required", { field: t(field) }) },
    { max: 100, message: t("field.tooLong", { field: t(field), max: 100 }) },
  ];
}

function ModalFooter({
  onClose,
  onOk,
  loading,
  testId,
}: {
  onClose: () => void;
  onOk: () => void;
  loading: boolean;
  testId: string;
}) {
  const t = messages.useT();
  return (
    <>
      <Button onClick={onClose}>{t("cancel")}</Button>
      <Button type="primary" loading={loading} onClick={onOk} data-testid={testId}>
        {t("ok")}
      </Button>
    </>
  );
}

/** The "product create" modal (product !== undefined: rename / recategorise). Mount it when it opens. */
export function ProductFormModal({ product, onClose }: { product?: ProductItem | undefined; onClose: () => void }) {
  const t = messages.useT();
  const { message } = App.useApp();
  const [form] = Form.useForm<ProductFormValues>();
  const create = useProductMutation<Record<string, unknown>>("/product/create");
  const edit = useProductMutation<Record<string, unknown>>("/product/edit");
  const mutation = product ? edit : create;
  const rules = useTextRules();

  async function submit(v: ProductFormValues) {
    const body = product
      ? { id: product.id, name: v.name?.trim(), category: v.category?.trim() }
      : {
          code: v.code,
          name: v.name?.trim(),
          category: v.category?.trim(),
          countryScope: v.countryScope,
          countryCodes: v.countryScope === CountryScope.ALL ? [] : (v.countryCodes ?? []),
        };
    if (await mutation.mutateAsync(body).catch(() => null)) {
      message.success(t("saved"));
      onClose();
    }
  }

  return (
    <Modal
      open
      title={t(product ? "product.editTitle" : "product.createTitle")}
      onCancel={onClose}
      footer={
        <ModalFooter
          onClose={onClose}
          onOk={() => form.submit()}
          loading={mutation.isPending}
          testId="product-form-submit"
        />
      }
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={product ?? { code: ProductCode.SMS, countryScope: CountryScope.ALL, countryCodes: [] }}
        data-testid="product-form"
      >
        {!product && (
          <Form.Item name="code" label={t("field.code")} rules={[{ required: true }]}>
            <Select
              options={Object.values(ProductCode).map((c) => ({ value: c, label: t(`code.${c}`) }))}
              data-testid="product-form-code"
            />
          </Form.Item>
        )}
        <Form.Item name="name" label={t("field.name")} rules={rules("field.name")}>
          <Input autoComplete="off" data-testid="product-form-name" />
        </Form.Item>
        <Form.Item name="category" label={t("field.category")} rules={rules("field.category")}>
          <Input autoComplete="off" data-testid="product-form-category" />
        </Form.Item>
        {!product && <CountryScopeFields testId="product-form" />}
        {mutation.isError && <Alert type="error" showIcon role="alert" title={errorText(mutation.error, t.shell)} />}
      </Form>
    </Modal>
  );
}

/** The "product category and country edit" modal: the category (/product/edit) and served countries. */
export function ProductCountriesModal({ product, onClose }: { product: ProductItem; onClose: () => void }) {
  const t = messages.useT();
  const { message } = App.useApp();
  const [form] = Form.useForm<ProductFormValues>();
  const edit = useProductMutation<Record<string, unknown>>("/product/edit");
  const countries = useProductMutation<Record<string, unknown>>("/product/countries");
  const rules = useTextRules();
  const pending = edit.isPending || countries.isPending;
  const error = edit.error ?? countries.error;

  async function submit(v: ProductFormValues) {
    edit.reset();
    countries.reset();
    const category = v.category?.trim() ?? "";
    try {
      if (category !== product.category) await edit.mutateAsync({ id: product.id, category });
      await countries.mutateAsync({
        id: product.id,
        countryScope: v.countryScope,
        countryCodes: v.countryScope === CountryScope.ALL ? [] : (v.countryCodes ?? []),
      });
    } catch {
      return; // shown in the form
    }
    message.success(t("saved"));
    onClose();
  }

  return (
    <Modal
      open
      title={`${t("product.countriesTitle")} · ${product.name}`}
      onCancel={onClose}
      footer={
        <ModalFooter onClose={onClose} onOk={() => form.submit()} loading={pending} testId="product-countries-submit" />
      }
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={product}
        data-testid="product-countries-form"
      >
        <Form.Item name="category" label={t("field.category")} rules={rules("field.category")}>
          <Input autoComplete="off" />
        </Form.Item>
        <CountryScopeFields testId="product-countries" />
        {error && <Alert type="error" showIcon role="alert" title={errorText(error, t.shell)} />}
      </Form>
    </Modal>
  );
}
