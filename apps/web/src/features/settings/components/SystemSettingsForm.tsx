import {
  OPT_OUT_KEYWORD_MAX_LENGTH,
  OPT_OUT_KEYWORDS_MAX,
  SENSITIVE_WORD_MAX_LENGTH,
  SENSITIVE_WORDS_MAX,
} from "@switchboard/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Divider, Form, InputNumber, Radio, Select, Skeleton, Switch, Typography } from "antd";
import { useEffect } from "react";
import { LoadError } from "../../../components/LoadError";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { api } from "../../../lib/api";
import {
  getSystemSetting,
  type SystemSetting,
  type SystemSettingInput,
  saveSystemSetting,
  settingsKeys,
  type TenantParam,
} from "../api";
import { formatDateTime } from "../format";
import { messages } from "../messages";

interface FormValues {
  reviewMode: number;
  reviewThreshold: number;
  sensitiveWords: string[];
  registrationOpen: boolean;
  internationalMode: boolean;
  domesticCountry: string;
  optOutKeywords?: string[];
}

/** Trimmed, blanks dropped, case-insensitive repeats dropped (the server does the same). */
export function cleanWords(words: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of words) {
    const w = raw.trim();
    if (!w || seen.has(w.toLowerCase())) continue;
    seen.add(w.toLowerCase());
    out.push(w);
  }
  return out;
}

const toValues = (s: SystemSetting): FormValues => ({
  reviewMode: s.reviewMode,
  reviewThreshold: s.reviewThreshold,
  sensitiveWords: s.sensitiveWords,
  registrationOpen: s.registrationOpen,
  internationalMode: s.internationalMode,
  domesticCountry: s.domesticCountry,
  optOutKeywords: s.optOutKeywords,
});

interface Country {
  code: string;
  name: string;
  dialCode: string;
}

/** The system settings form: review rules, sensitive words, registration and numbering mode, in sections. */
export function SystemSettingsForm({ tenantId }: { tenantId: TenantParam }) {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const reviewMode = Form.useWatch("reviewMode", form);

  const setting = useQuery({
    queryKey: settingsKeys.system(tenantId),
    queryFn: ({ signal }) => getSystemSetting(tenantId, signal),
  });
  const countries = useQuery({
    queryKey: settingsKeys.countries(t.lang),
    queryFn: ({ signal }) => api.getList<Country>("/country/list", { signal }),
    staleTime: 3_600_000,
  });

  useEffect(() => {
    if (setting.data) form.setFieldsValue(toValues(setting.data));
  }, [setting.data, form]);

  const save = useMutation({
    mutationFn: (input: SystemSettingInput) => saveSystemSetting(tenantId, input),
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKeys.system(tenantId), saved);
      form.setFieldsValue(toValues(saved));
      message.success(t("common.saved"));
    },
    onError: showError,
  });

  if (setting.isPending) return <Skeleton active />;
  if (setting.isError) return <LoadError error={setting.error} onRetry={() => setting.refetch()} />;

  const onFinish = (v: FormValues) =>
    save.mutate({
      reviewMode: v.reviewMode,
      reviewThreshold: v.reviewThreshold,
      sensitiveWords: cleanWords(v.sensitiveWords ?? []),
      registrationOpen: v.registrationOpen,
      internationalMode: v.internationalMode,
      domesticCountry: v.domesticCountry,
      // Only when the server said which it has (an older API has none to edit).
      ...(setting.data.optOutKeywords ? { optOutKeywords: cleanWords(v.optOutKeywords ?? []) } : {}),
    });

  return (
    <Form<FormValues>
      form={form}
      layout="vertical"
      initialValues={toValues(setting.data)}
      onFinish={onFinish}
      style={{ maxWidth: 720 }}
      data-testid="system-form"
    >
      <Divider titlePlacement="start">{t("system.review")}</Divider>
      <Form.Item name="reviewMode" label={t("system.reviewMode")}>
        <Radio.Group
          data-testid="review-mode"
          options={[0, 1, 2].map((m) => ({ value: m, label: t(`system.reviewMode.${m}` as "system.reviewMode.0") }))}
        />
      </Form.Item>
      <Form.Item
        name="reviewThreshold"
        label={t("system.reviewThreshold")}
        extra={t("system.reviewThreshold.help")}
        hidden={reviewMode !== 2}
        rules={[{ required: true, message: t("system.reviewThreshold.required") }]}
      >
        <InputNumber min={0} max={10_000_000} precision={0} style={{ width: 200 }} data-testid="review-threshold" />
      </Form.Item>

      <Divider titlePlacement="start">{t("system.sensitive")}</Divider>
      <Form.Item
        name="sensitiveWords"
        label={t("system.sensitiveWords")}
        extra={t("system.sensitiveWords.help", { max: SENSITIVE_WORDS_MAX, len: SENSITIVE_WORD_MAX_LENGTH })}
        rules={[
          {
            validator: async (_, value: string[] | undefined) => {
              const words = cleanWords(value ?? []);
              if (words.some((w) => w.length > SENSITIVE_WORD_MAX_LENGTH))
                throw new Error(t("system.sensitiveWords.tooLong", { len: SENSITIVE_WORD_MAX_LENGTH }));
              if (words.length > SENSITIVE_WORDS_MAX)
                throw new Error(t("system.sensitiveWords.tooMany", { max: SENSITIVE_WORDS_MAX }));
            },
          },
        ]}
      >
        <Select
          mode="tags"
          open={false}
          suffixIcon={null}
          tokenSeparators={[",", "，", "\n"]}
          placeholder={t("system.sensitiveWords.placeholder")}
          aria-label={t("system.sensitiveWords")}
          data-testid="sensitive-words"
        />
      </Form.Item>

      {setting.data.optOutKeywords && (
        <Form.Item
          name="optOutKeywords"
          label={t("system.optOutKeywords")}
          extra={t("system.optOutKeywords.help", { max: OPT_OUT_KEYWORDS_MAX, len: OPT_OUT_KEYWORD_MAX_LENGTH })}
          rules={[
            {
              validator: async (_, value: string[] | undefined) => {
                const words = cleanWords(value ?? []);
                if (words.some((w) => w.length > OPT_OUT_KEYWORD_MAX_LENGTH) || words.length > OPT_OUT_KEYWORDS_MAX)
                  throw new Error(
                    t("system.optOutKeywords.help", { max: OPT_OUT_KEYWORDS_MAX, len: OPT_OUT_KEYWORD_MAX_LENGTH }),
                  );
              },
            },
          ]}
        >
          <Select
            mode="tags"
            open={false}
            suffixIcon={null}
            tokenSeparators={[",", "，", "\n"]}
            placeholder={t("system.sensitiveWords.placeholder")}
            aria-label={t("system.optOutKeywords")}
            data-testid="opt-out-keywords"
          />
        </Form.Item>
      )}

      <Divider titlePlacement="start">{t("system.registration")}</Divider>
      <Form.Item name="registrationOpen" label={t("system.registrationOpen")} valuePropName="checked">
        <Switch data-testid="registration-open" />
      </Form.Item>

      <Divider titlePlacement="start">{t("system.mode")}</Divider>
      <Form.Item name="internationalMode" label={t("system.internationalMode")}>
        <Radio.Group
          data-testid="international-mode"
          options={[
            { value: true, label: t("system.mode.international") },
            { value: false, label: t("system.mode.domestic") },
          ]}
        />
      </Form.Item>
      <Form.Item
        name="domesticCountry"
        label={t("system.domesticCountry")}
        rules={[{ required: true, message: t("system.domesticCountry.required") }]}
      >
        <Select
          showSearch={{ optionFilterProp: "label" }}
          loading={countries.isLoading}
          style={{ width: 320 }}
          aria-label={t("system.domesticCountry")}
          data-testid="domestic-country"
          options={(countries.data?.list ?? []).map((c) => ({
            value: c.code,
            label: `${c.name} (${c.code}, +${c.dialCode.replace(/^\+/, "")})`,
          }))}
        />
      </Form.Item>

      <Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="system-save">
          {t("common.save")}
        </Button>
        {setting.data.updatedAt && (
          <Typography.Text type="secondary" style={{ marginLeft: 16 }}>
            {t("system.updatedAt", { time: formatDateTime(setting.data.updatedAt) })}
          </Typography.Text>
        )}
      </Form.Item>
    </Form>
  );
}
