import { type CountryItem, inCountryScope } from "@switchboard/contracts";
import { InterfaceAction, UserType } from "@switchboard/contracts/codes";
import { Alert, App, Button, Form, Modal, Radio, Select } from "antd";
import { errorText } from "../../../lib/error-text";
import { useAllProducts } from "../../products/api";
import { CountrySelect } from "../../products/components/CountrySelect";
import { UserPicker } from "../../products/components/UserPicker";
import { useAllChannels, useChannelMutation } from "../api";
import { messages } from "../messages";

export interface RouteFormValues {
  userId?: number;
  productId?: number;
  action: 1 | 2;
  channelId?: number;
  countryCodes?: string[];
}

/** The /channel/route body: no countries = every country ("*") to set, every route of the product to clear. */
export function routeBody(v: RouteFormValues): Record<string, unknown> {
  const codes = v.countryCodes ?? [];
  return {
    userId: v.userId,
    productId: v.productId,
    action: v.action,
    ...(v.action === InterfaceAction.SET ? { channelId: v.channelId } : {}),
    ...(codes.length > 0 ? { countryCodes: codes } : {}),
  };
}

const CUSTOMER_ONLY = [UserType.USER] as const;

/**
 * Points a customer's product at a channel of the same product type, for every country or the listed ones;
 * or clears routes so the customer falls back to the product's default channel. Mount when it opens.
 */
export function RouteFormModal({
  initial,
  customerLabel,
  onClose,
}: {
  initial?: Partial<RouteFormValues> | undefined;
  customerLabel?: string | undefined;
  onClose: () => void;
}) {
  const t = messages.useT();
  const { message } = App.useApp();
  const [form] = Form.useForm<RouteFormValues>();
  const mutation = useChannelMutation<Record<string, unknown>, { action: number; routes: number }>("/channel/route");
  const products = useAllProducts();
  const channels = useAllChannels();
  const action = Form.useWatch("action", form) ?? InterfaceAction.SET;
  const productId = Form.useWatch("productId", form);
  const channelId = Form.useWatch("channelId", form);
  const product = products.data?.list.find((p) => p.id === productId);
  const channel = channels.data?.list.find((c) => c.id === channelId);
  const channelOptions = (channels.data?.list ?? [])
    .filter((c) => !product || c.productCode === product.code)
    .map((c) => ({
      value: c.id,
      label: `${c.name} · ${t(`kind.${c.kind}` as "kind.smpp")}${c.status === 2 ? ` (${t("route.channelPaused")})` : ""}`,
    }));

  const allow = (c: CountryItem) =>
    (!product || inCountryScope(product.countryScope, product.countryCodes, c.code)) &&
    (action !== InterfaceAction.SET || !channel || inCountryScope(channel.countryScope, channel.countryCodes, c.code));

  async function submit(values: RouteFormValues) {
    const result = await mutation.mutateAsync(routeBody(values)).catch(() => null);
    if (!result) return;
    message.success(t(`route.done.${values.action}`, { count: result.routes }));
    onClose();
  }

  return (
    <Modal
      open
      title={t("route.formTitle")}
      onCancel={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t("cancel")}</Button>
          <Button
            type="primary"
            loading={mutation.isPending}
            onClick={() => form.submit()}
            data-testid="route-form-submit"
          >
            {t("ok")}
          </Button>
        </>
      }
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ action: InterfaceAction.SET, countryCodes: [], ...initial }}
        onValuesChange={(changed: Partial<RouteFormValues>) => {
          if ("productId" in changed) {
            const code = products.data?.list.find((p) => p.id === changed.productId)?.code;
            const current = channels.data?.list.find((c) => c.id === form.getFieldValue("channelId"));
            if (current && current.productCode !== code) form.setFieldValue("channelId", undefined);
          }
        }}
        data-testid="route-form"
      >
        <Form.Item
          name="userId"
          label={t("route.customer")}
          rules={[{ required: true, message: t("route.required", { field: t("route.customer") }) }]}
        >
          <UserPicker
            type={UserType.USER}
            types={CUSTOMER_ONLY}
            knownLabel={customerLabel}
            data-testid="route-form-customer"
          />
        </Form.Item>
        <Form.Item
          name="productId"
          label={t("route.product")}
          rules={[{ required: true, message: t("route.required", { field: t("route.product") }) }]}
        >
          <Select
            loading={products.isLoading}
            options={(products.data?.list ?? []).map((p) => ({
              value: p.id,
              label: `${p.name} · ${t(`code.${p.code}` as "code.3000")}`,
            }))}
            data-testid="route-form-product"
          />
        </Form.Item>
        <Form.Item name="action" label={t("route.action")}>
          <Radio.Group
            options={[InterfaceAction.SET, InterfaceAction.CLEAR].map((a) => ({
              value: a,
              label: t(`route.action.${a}`),
            }))}
            data-testid="route-form-action"
          />
        </Form.Item>
        {action === InterfaceAction.SET && (
          <Form.Item
            name="channelId"
            label={t("route.channel")}
            rules={[{ required: true, message: t("route.required", { field: t("route.channel") }) }]}
          >
            <Select loading={channels.isLoading} options={channelOptions} data-testid="route-form-channel" />
          </Form.Item>
        )}
        <Form.Item
          name="countryCodes"
          label={t("route.countries")}
          extra={action === InterfaceAction.SET ? t("route.countriesHint") : t("route.clearCountriesHint")}
        >
          <CountrySelect allow={allow} data-testid="route-form-countries" />
        </Form.Item>
        {mutation.isError && (
          <Alert
            type="error"
            showIcon
            role="alert"
            title={errorText(mutation.error, t.shell)}
            data-testid="route-form-error"
          />
        )}
      </Form>
    </Modal>
  );
}
