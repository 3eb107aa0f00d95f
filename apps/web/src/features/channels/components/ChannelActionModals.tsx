import type { ChannelItem, ChannelTransferResult } from "@switchboard/contracts";
import { ActiveStatus } from "@switchboard/contracts/codes";
import { Alert, App, Button, Form, Modal, Result, Select, Spin, Typography } from "antd";
import { type ReactNode, useEffect } from "react";
import { errorText } from "../../../lib/error-text";
import { TechnicalDetail, useReasonText } from "../../connection-test/reason";
import { useAllProducts } from "../../products/api";
import { useAllChannels, useChannelMutation, useTestChannel } from "../api";
import { messages } from "../messages";

/**
 * Runs POST /channel/test when it opens and shows the outcome, its reason in the user's language (the provider's
 * English detail under it as secondary text) and the latency.
 */
export function TestChannelModal({ channel, onClose }: { channel: ChannelItem; onClose: () => void }) {
  const t = messages.useT();
  const test = useTestChannel();
  const reasonText = useReasonText();
  const run = test.mutate;
  useEffect(() => run(channel.id), [run, channel.id]);

  let body: ReactNode;
  if (test.isPending || test.isIdle) {
    body = (
      <div style={{ textAlign: "center", padding: 24 }} data-testid="channel-test-running">
        <Spin />
        <div>{t("test.running")}</div>
      </div>
    );
  } else if (test.isError) {
    body = <Alert type="error" showIcon role="alert" title={errorText(test.error, t.shell)} />;
  } else {
    const r = test.data;
    body = (
      <Result
        status={r.ok ? "success" : "error"}
        title={<span data-testid="channel-test-outcome">{r.ok ? t("test.ok") : t("test.failed")}</span>}
        subTitle={
          <>
            <Typography.Paragraph style={{ marginBottom: 4 }} data-testid="channel-test-reason">
              {reasonText(r.reason, r.httpStatus)}
            </Typography.Paragraph>
            <Typography.Paragraph style={{ marginBottom: 4 }}>
              <TechnicalDetail detail={r.detail} testId="channel-test-detail" />
            </Typography.Paragraph>
            <Typography.Text type="secondary" data-testid="channel-test-latency">
              {t("test.latency", { ms: r.latencyMs })}
            </Typography.Text>
          </>
        }
      />
    );
  }
  return (
    <Modal
      open
      title={t("test.title", { name: channel.name })}
      onCancel={onClose}
      footer={
        <>
          <Button onClick={() => run(channel.id)} disabled={test.isPending}>
            {t("action.test")}
          </Button>
          <Button type="primary" onClick={onClose} data-testid="channel-test-close">
            {t("ok")}
          </Button>
        </>
      }
    >
      <div data-testid="channel-test-result" aria-live="polite">
        {body}
      </div>
    </Modal>
  );
}

/** Make the channel the default of one product of its code. */
export function DefaultChannelModal({ channel, onClose }: { channel: ChannelItem; onClose: () => void }) {
  const t = messages.useT();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ productId: number }>();
  const products = useAllProducts(channel.productCode);
  const mutation = useChannelMutation<{ channelId: number; productId: number }>("/channel/default");
  const list = products.data?.list ?? [];

  async function submit({ productId }: { productId: number }) {
    if (!(await mutation.mutateAsync({ channelId: channel.id, productId }).catch(() => null))) return;
    message.success(t("default.done", { product: list.find((p) => p.id === productId)?.name ?? "" }));
    onClose();
  }

  return (
    <Modal
      open
      title={t("default.title", { name: channel.name })}
      onCancel={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t("cancel")}</Button>
          <Button
            type="primary"
            loading={mutation.isPending}
            onClick={() => form.submit()}
            data-testid="channel-default-submit"
          >
            {t("ok")}
          </Button>
        </>
      }
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="productId"
          label={t("default.product")}
          extra={t("default.hint")}
          rules={[{ required: true, message: t("transfer.required", { field: t("default.product") }) }]}
        >
          <Select
            loading={products.isLoading}
            notFoundContent={t("default.noProduct", { code: t(`code.${channel.productCode}` as "code.3000") })}
            options={list.map((p) => ({
              value: p.id,
              label: `${p.name}${p.defaultChannelName ? ` (${p.defaultChannelName})` : ""}`,
            }))}
            data-testid="channel-default-product"
          />
        </Form.Item>
        {mutation.isError && <Alert type="error" showIcon role="alert" title={errorText(mutation.error, t.shell)} />}
      </Form>
    </Modal>
  );
}

/** The "api data transfer" modal: every customer route of one channel moves to another of the same code. */
export function TransferModal({ from, onClose }: { from?: ChannelItem | undefined; onClose: () => void }) {
  const t = messages.useT();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ fromChannelId: number; toChannelId: number }>();
  const channels = useAllChannels();
  const mutation = useChannelMutation<Record<string, unknown>, ChannelTransferResult>("/channel/transfer");
  const fromId = Form.useWatch("fromChannelId", form) ?? from?.id;
  const list = channels.data?.list ?? [];
  const source = list.find((c) => c.id === fromId);
  const option = (c: ChannelItem) => ({
    value: c.id,
    label: `${c.name} · ${t(`kind.${c.kind}` as "kind.smpp")} · ${c.routeCount}`,
  });

  async function submit(v: { fromChannelId: number; toChannelId: number }) {
    const result = await mutation.mutateAsync(v).catch(() => null);
    if (!result) return;
    message.success(t("transfer.done", { ...result }));
    onClose();
  }

  return (
    <Modal
      open
      title={t("transfer.title")}
      onCancel={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t("cancel")}</Button>
          <Button
            type="primary"
            loading={mutation.isPending}
            onClick={() => form.submit()}
            data-testid="transfer-submit"
          >
            {t("ok")}
          </Button>
        </>
      }
    >
      <Alert type="info" showIcon title={t("transfer.hint")} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ fromChannelId: from?.id }}>
        <Form.Item
          name="fromChannelId"
          label={t("transfer.from")}
          rules={[{ required: true, message: t("transfer.required", { field: t("transfer.from") }) }]}
        >
          <Select loading={channels.isLoading} options={list.map(option)} data-testid="transfer-from" />
        </Form.Item>
        <Form.Item
          name="toChannelId"
          label={t("transfer.to")}
          dependencies={["fromChannelId"]}
          rules={[
            { required: true, message: t("transfer.required", { field: t("transfer.to") }) },
            ({ getFieldValue }) => ({
              validator: (_, v?: number) =>
                v === undefined || v !== getFieldValue("fromChannelId")
                  ? Promise.resolve()
                  : Promise.reject(new Error(t("transfer.same"))),
            }),
          ]}
        >
          <Select
            loading={channels.isLoading}
            options={list
              .filter((c) => c.id !== fromId && (!source || c.productCode === source.productCode))
              .filter((c) => c.status === ActiveStatus.NORMAL)
              .map(option)}
            data-testid="transfer-to"
          />
        </Form.Item>
        {mutation.isError && <Alert type="error" showIcon role="alert" title={errorText(mutation.error, t.shell)} />}
      </Form>
    </Modal>
  );
}
