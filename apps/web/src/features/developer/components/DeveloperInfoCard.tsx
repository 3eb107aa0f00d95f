import { KeyOutlined, ReadOutlined } from "@ant-design/icons";
import type { DeveloperInfo } from "@switchboard/contracts";
import { App, Button, type ButtonProps, Descriptions, Space, Switch, Typography } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { config } from "../../../lib/config";
import { useDeveloperInfo, useRefreshSecretKey, useToggleApi } from "../api/developer-api";
import { messages } from "../messages";
import { QueryState } from "./QueryState";
import { SecretKeyModal } from "./SecretKeyModal";

const confirmButtonProps: ButtonProps & { "data-testid": string } = {
  danger: true,
  "data-testid": "secret-key-confirm",
};

function SecretKeyControl({ info }: { info: DeveloperInfo }) {
  const t = messages.useT();
  const { modal } = App.useApp();
  const showError = useApiErrorMessage();
  const refresh = useRefreshSecretKey();
  // The key lives here only while its modal is open.
  const [shownKey, setShownKey] = useState<string | null>(null);
  const hasKey = info.secretKeyPrefix !== null;

  const run = () =>
    refresh.mutate(undefined, {
      onSuccess: (result) => setShownKey(result.secretKey),
      onError: showError,
    });
  const onClick = () => {
    if (!hasKey) return run();
    modal.confirm({
      title: t("key.confirmTitle"),
      content: t("key.confirmContent"),
      okText: t("key.confirmOk"),
      okButtonProps: confirmButtonProps,
      onOk: run,
    });
  };

  return (
    <Space wrap>
      <Typography.Text data-testid="secret-key-state">
        {hasKey
          ? t("info.keyPrefix", {
              prefix: info.secretKeyPrefix ?? "",
              time: info.secretKeyCreatedAt ? dayjs(info.secretKeyCreatedAt).format("YYYY-MM-DD HH:mm") : "-",
            })
          : t("info.noKey")}
      </Typography.Text>
      <Button icon={<KeyOutlined />} loading={refresh.isPending} onClick={onClick} data-testid="secret-key-refresh">
        {hasKey ? t("key.refresh") : t("key.create")}
      </Button>
      <SecretKeyModal
        secretKey={shownKey}
        onClose={() => {
          setShownKey(null);
          refresh.reset();
        }}
      />
    </Space>
  );
}

function ApiSwitch({ enabled }: { enabled: boolean }) {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const toggle = useToggleApi();
  return (
    <Space>
      <Switch
        checked={enabled}
        loading={toggle.isPending}
        aria-label={t("info.apiEnabled")}
        data-testid="api-toggle"
        onChange={(next) =>
          toggle.mutate(next, {
            onSuccess: (r) => void message.success(t(r.apiEnabled ? "info.apiToggleOn" : "info.apiToggleOff")),
            onError: showError,
          })
        }
      />
      <Typography.Text data-testid="api-state">{t(enabled ? "info.apiOn" : "info.apiOff")}</Typography.Text>
    </Space>
  );
}

/** API base, the API documentation, key state (with refresh), whitelist and notify URL at a glance, and the API switch. */
export function DeveloperInfoCard() {
  const t = messages.useT();
  const query = useDeveloperInfo();
  return (
    <QueryState query={query}>
      {(info) => (
        <Descriptions
          column={1}
          bordered
          size="middle"
          data-testid="developer-info"
          items={[
            {
              key: "apiBase",
              label: t("info.apiBase"),
              children: (
                <Typography.Text copyable data-testid="api-base">
                  {config.apiBase}
                </Typography.Text>
              ),
            },
            {
              key: "docs",
              label: t("info.docs"),
              children: (
                <Space orientation="vertical" size={0}>
                  {/* the API serves its OpenAPI document with Swagger UI at /docs */}
                  <Typography.Link
                    href={`${config.apiBase}/docs`}
                    target="_blank"
                    rel="noopener noreferrer"
                    data-testid="api-docs-link"
                  >
                    <ReadOutlined /> {t("info.docsLink")}
                  </Typography.Link>
                  <Typography.Text type="secondary">{t("info.docsHint")}</Typography.Text>
                </Space>
              ),
            },
            { key: "api", label: t("info.apiEnabled"), children: <ApiSwitch enabled={info.apiEnabled} /> },
            { key: "key", label: t("info.secretKey"), children: <SecretKeyControl info={info} /> },
            {
              key: "ip",
              label: t("info.whitelist"),
              children: (
                <span data-testid="whitelist-summary">
                  {info.ipWhitelist.length === 0
                    ? t("info.whitelistAny")
                    : t("info.whitelistCount", { count: info.ipWhitelist.length })}
                </span>
              ),
            },
            {
              key: "notify",
              label: t("info.notifyUrl"),
              children: (
                <Typography.Text data-testid="notify-summary">{info.notifyUrl ?? t("info.notifyNone")}</Typography.Text>
              ),
            },
          ]}
        />
      )}
    </QueryState>
  );
}
