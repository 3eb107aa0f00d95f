import {
  CALLBACK_SIGNATURE_HEADER,
  NOTIFY_URL_MAX,
  type NotifyTestResult,
  notifyUrl as notifyUrlSchema,
} from "@switchboard/contracts";
import { Alert, App, Button, Flex, Input, Typography } from "antd";
import { useId, useState } from "react";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { TechnicalDetail, useReasonText } from "../../connection-test/reason";
import { useSaveNotifyUrl } from "../api/developer-api";
import { messages } from "../messages";

/**
 * The notify (callback) URL: save it, or save it and have the server post a signed sample event to it and say
 * how the receiver answered. Checked as typed with the API's rule (http/https, no credentials).
 */
export function NotifyUrlForm({ initial, hasKey }: { initial: string | null; hasKey: boolean }) {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const save = useSaveNotifyUrl();
  const reasonText = useReasonText();
  const [url, setUrl] = useState(initial ?? "");
  const [touched, setTouched] = useState(false);
  const [test, setTest] = useState<NotifyTestResult | null>(null);
  const fieldId = useId();
  const valid = notifyUrlSchema.safeParse(url).success;
  const showInvalid = touched && !valid;

  const submit = (withTest: boolean) => {
    setTouched(true);
    if (!valid) return;
    setTest(null);
    save.mutate(
      { notifyUrl: url.trim(), test: withTest },
      {
        onSuccess: (r) => {
          setUrl(r.notifyUrl ?? "");
          setTest(r.test);
          if (!r.test) void message.success(t("notify.saved"));
        },
        onError: showError,
      },
    );
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submit(false);
      }}
      data-testid="notify-form"
    >
      <Flex vertical gap={12}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t("notify.help", { header: CALLBACK_SIGNATURE_HEADER })}
        </Typography.Paragraph>
        <label htmlFor={fieldId}>
          <Typography.Text strong>{t("notify.label")}</Typography.Text>
        </label>
        <Input
          id={fieldId}
          value={url}
          maxLength={NOTIFY_URL_MAX}
          placeholder={t("notify.placeholder")}
          onChange={(e) => setUrl(e.target.value)}
          onBlur={() => setTouched(true)}
          status={showInvalid ? "error" : undefined}
          aria-invalid={showInvalid}
          data-testid="notify-input"
        />
        {showInvalid && (
          <Typography.Text type="danger" role="alert" data-testid="notify-error">
            {t("notify.invalid", { max: NOTIFY_URL_MAX })}
          </Typography.Text>
        )}
        {!hasKey && <Alert type="info" showIcon title={t("notify.needKey")} />}
        <Flex gap={8} wrap>
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="notify-save">
            {t("notify.save")}
          </Button>
          <Button
            onClick={() => submit(true)}
            disabled={!hasKey || url.trim() === ""}
            loading={save.isPending}
            data-testid="notify-test"
          >
            {t("notify.saveAndTest")}
          </Button>
        </Flex>
        {test && (
          <Alert
            data-testid="notify-test-result"
            type={test.delivered ? "success" : "error"}
            showIcon
            title={t("notify.testResult")}
            description={
              test.delivered ? (
                t("notify.testDelivered", { status: test.httpStatus ?? "-", ms: test.durationMs })
              ) : (
                <Flex vertical>
                  <span data-testid="notify-test-reason">
                    {t("notify.testFailed", { reason: reasonText(test.reason, test.httpStatus), ms: test.durationMs })}
                  </span>
                  {/* a system code (ECONNREFUSED, CERT_HAS_EXPIRED) says more to whoever runs the receiver */}
                  <TechnicalDetail detail={systemCode(test)} testId="notify-test-detail" />
                </Flex>
              )
            }
          />
        )}
      </Flex>
    </form>
  );
}

/** The sender's raw code when it is a system code worth showing beside the translated reason; else null. */
function systemCode(test: NotifyTestResult): string | null {
  if (!test.error || test.error === test.reason || /^http_\d+$/.test(test.error)) return null;
  return test.error;
}
