import {
  type CountryItem,
  EXTRA_PRICES,
  type ExtraPrice,
  inCountryScope,
  type ProductItem,
} from "@switchboard/contracts";
import { CountryScope, PriceAction, ProductCode } from "@switchboard/contracts/codes";
import { Alert, App, Button, Form, Input, Modal, Radio } from "antd";
import { errorText } from "../../../lib/error-text";
import { type PriceChange, usePriceMutation } from "../api";
import { messages } from "../messages";
import { CountrySelect } from "./CountrySelect";

/** A positive amount with at most 4 decimals (the API's money unit is 1/10,000). */
export const UNIT_PRICE_PATTERN = /^\d{1,12}(\.\d{1,4})?$/;

export function isValidUnitPrice(text: string): boolean {
  const v = text.trim();
  return UNIT_PRICE_PATTERN.test(v) && /[1-9]/.test(v);
}

export interface PriceFormValues {
  action: 1 | 2;
  countryScope: 1 | 2 | 3;
  countryCodes?: string[];
  unitPrice?: string;
  /** Per number screened (task type 1); any of the prices, or several, may be set at once. */
  screeningPrice?: string;
  /** WS products: a template message of that category (unset: the message price applies). */
  marketingPrice?: string;
  utilityPrice?: string;
  authenticationPrice?: string;
}

/** The prices a form may set beside the message price, for a product of that code. */
export function extraPriceFields(productCode: number): readonly ExtraPrice[] {
  return productCode === ProductCode.WS ? EXTRA_PRICES : ["screeningPrice"];
}

export interface PriceFormModalProps {
  open: boolean;
  product: ProductItem;
  /** Absent: the tenant's default prices. */
  user?: { id: number; label: string } | undefined;
  currency: string;
  /** Opening values (e.g. one country's row). */
  initial?: Partial<PriceFormValues> | undefined;
  onClose: () => void;
}

/** The body of /price/default/set or /price/customer/set for the form's values. */
export function priceChangeBody(productId: number, userId: number | undefined, v: PriceFormValues): PriceChange {
  return {
    productId,
    ...(userId === undefined ? {} : { userId }),
    action: v.action,
    countryScope: v.countryScope,
    countryCodes: v.countryScope === CountryScope.ALL ? [] : (v.countryCodes ?? []),
    ...(v.action === PriceAction.SET && v.unitPrice?.trim() ? { unitPrice: v.unitPrice.trim() } : {}),
    ...Object.fromEntries(
      EXTRA_PRICES.flatMap((field) =>
        v.action === PriceAction.SET && v[field]?.trim() ? [[field, v[field].trim()]] : [],
      ),
    ),
  };
}

/**
 * Set or clear prices of one product in a country scope among the countries it serves: the tenant's
 * defaults, or one customer's (or agent's) own prices. Server refusals (a country the product does not serve,
 * an agent's cost floor) are shown inside the form. Mount it when it opens (its values start fresh).
 */
export function PriceFormModal({ open, product, user, currency, initial, onClose }: PriceFormModalProps) {
  const t = messages.useT();
  const { message } = App.useApp();
  const [form] = Form.useForm<PriceFormValues>();
  const mutation = usePriceMutation();
  const action = Form.useWatch("action", form) ?? PriceAction.SET;
  const scope = Form.useWatch("countryScope", form) ?? CountryScope.ALL;

  const served = (c: CountryItem) => inCountryScope(product.countryScope, product.countryCodes, c.code);
  const extras = extraPriceFields(product.code);
  const priceRule = {
    validator: (_: unknown, v: string | undefined) =>
      !v?.trim() || isValidUnitPrice(v) ? Promise.resolve() : Promise.reject(new Error(t("price.unitPriceInvalid"))),
  };

  async function submit(values: PriceFormValues) {
    const result = await mutation.mutateAsync(priceChangeBody(product.id, user?.id, values)).catch(() => null);
    if (!result) return;
    message.success(t(`price.done.${values.action}`, { count: result.countries }));
    onClose();
  }

  return (
    <Modal
      open={open}
      title={user ? t("price.formTitle.user", { user: user.label }) : t("price.formTitle.default")}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t("cancel")}
        </Button>,
        <Button
          key="ok"
          type="primary"
          loading={mutation.isPending}
          onClick={() => form.submit()}
          data-testid="price-form-submit"
        >
          {t("price.submit")}
        </Button>,
      ]}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        data-testid="price-form"
        initialValues={{ action: PriceAction.SET, countryScope: CountryScope.ALL, countryCodes: [], ...initial }}
      >
        <Form.Item label={t("price.product")}>
          <span>{product.name}</span>
        </Form.Item>
        <Form.Item name="action" label={t("price.action")}>
          <Radio.Group
            options={[PriceAction.SET, PriceAction.CLEAR].map((a) => ({ value: a, label: t(`price.action.${a}`) }))}
            data-testid="price-form-action"
          />
        </Form.Item>
        <Form.Item name="countryScope" label={t("price.scope")}>
          <Radio.Group
            options={[CountryScope.ALL, CountryScope.INCLUDE, CountryScope.EXCLUDE].map((s) => ({
              value: s,
              label: t(`price.scope.${s}`),
            }))}
            data-testid="price-form-scope"
          />
        </Form.Item>
        {scope !== CountryScope.ALL && (
          <Form.Item
            name="countryCodes"
            label={t("price.countries")}
            rules={[{ required: true, type: "array", min: 1, message: t("field.countriesRequired") }]}
          >
            <CountrySelect allow={served} data-testid="price-form-countries" />
          </Form.Item>
        )}
        {action === PriceAction.SET ? (
          <Form.Item
            name="unitPrice"
            label={t("price.unitPrice", { currency })}
            extra={t("price.unitPriceHint")}
            dependencies={[...extras]}
            rules={[
              {
                // One price at least: another price alone changes countries that have a message price.
                validator: (_, v: string | undefined) =>
                  v?.trim() || extras.some((f) => form.getFieldValue(f)?.trim())
                    ? Promise.resolve()
                    : Promise.reject(new Error(t("price.unitPriceRequired"))),
              },
              priceRule,
            ]}
          >
            <Input inputMode="decimal" autoComplete="off" data-testid="price-form-unit-price" />
          </Form.Item>
        ) : null}
        {action === PriceAction.SET ? (
          extras.map((field) => (
            <Form.Item
              key={field}
              name={field}
              label={t(`price.${field}`, { currency })}
              extra={t(`price.${field}Hint`)}
              rules={[priceRule]}
            >
              <Input
                inputMode="decimal"
                autoComplete="off"
                data-testid={`price-form-${field === "screeningPrice" ? "screening-price" : field}`}
              />
            </Form.Item>
          ))
        ) : (
          <Alert type="info" showIcon title={user ? t("price.clearHint.user") : t("price.clearHint.default")} />
        )}
        {mutation.isError && (
          <Alert
            type="error"
            showIcon
            role="alert"
            title={errorText(mutation.error, t.shell)}
            style={{ marginTop: 12 }}
            data-testid="price-form-error"
          />
        )}
      </Form>
    </Modal>
  );
}
