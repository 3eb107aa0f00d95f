import { SENDER_ID_NOTE_MAX, senderIdRequestBody } from "@switchboard/contracts";
import { Alert, App, Button, Col, Form, Input, Row, Select } from "antd";
import { useMemo, useState } from "react";
import { errorText } from "../../../lib/error-text";
import { useCountries } from "../../products/api";
import { countryLabel } from "../../products/components/CountrySelect";
import { useRequestSenderId } from "../api";
import { messages } from "../messages";

/** The country select's value for "every country" (sent as countryCode null). */
const ALL = "*";

interface Values {
  senderId?: string;
  countryCode?: string;
  note?: string;
}

/** A customer's request for a sender id: the id, one country or all, and what it is for. */
export function RequestForm() {
  const t = messages.useT();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const countries = useCountries();
  const request = useRequestSenderId();
  const [error, setError] = useState<string | null>(null);
  const options = useMemo(
    () => [
      { value: ALL, label: t("form.allCountries"), search: "all *" },
      ...(countries.data?.list ?? []).map((c) => ({
        value: c.code,
        label: countryLabel(c),
        search: `${c.code} ${c.dialCode} ${c.nameEn} ${c.nameZh}`,
      })),
    ],
    [countries.data, t],
  );

  const submit = (v: Values) => {
    setError(null);
    const body = senderIdRequestBody.parse({
      senderId: v.senderId ?? "",
      countryCode: !v.countryCode || v.countryCode === ALL ? null : v.countryCode,
      ...(v.note?.trim() ? { note: v.note.trim() } : {}),
    });
    request.mutate(body, {
      onSuccess: () => {
        void message.success(t("form.submitted"));
        form.resetFields(["senderId", "note"]);
      },
      onError: (e) => setError(errorText(e, t.shell)),
    });
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      onFinish={submit}
      initialValues={{ countryCode: ALL }}
      data-testid="sender-id-form"
      aria-label={t("form.title")}
    >
      <Row gutter={12}>
        <Col xs={24} md={8}>
          <Form.Item
            name="senderId"
            label={t("form.senderId")}
            rules={[
              { required: true, whitespace: true, message: t("form.senderIdRequired") },
              {
                validator: (_, value: string | undefined) =>
                  !value?.trim() || senderIdRequestBody.shape.senderId.safeParse(value).success
                    ? Promise.resolve()
                    : Promise.reject(new Error(t("form.senderIdInvalid"))),
              },
            ]}
          >
            <Input maxLength={17} placeholder={t("form.senderIdPlaceholder")} data-testid="sender-id-input" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="countryCode" label={t("form.country")}>
            <Select
              options={options}
              loading={countries.isLoading}
              placeholder={t("form.countryPlaceholder")}
              showSearch={{
                filterOption: (input, option) =>
                  `${option?.label ?? ""} ${option?.search ?? ""}`.toLowerCase().includes(input.trim().toLowerCase()),
              }}
              data-testid="sender-id-country"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="note" label={t("form.note")}>
            <Input
              maxLength={SENDER_ID_NOTE_MAX}
              placeholder={t("form.notePlaceholder")}
              data-testid="sender-id-note"
            />
          </Form.Item>
        </Col>
      </Row>
      {error && (
        <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="sender-id-error" />
      )}
      <Button type="primary" htmlType="submit" loading={request.isPending} data-testid="sender-id-submit">
        {t("form.submit")}
      </Button>
    </Form>
  );
}
