import { IP_WHITELIST_MAX } from "@switchboard/contracts";
import { Alert, App, Button, Flex, Input, Typography } from "antd";
import { useId, useMemo, useState } from "react";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { useSaveIpWhitelist } from "../api/developer-api";
import { checkIpList, type IpListProblem } from "../lib/ip-entry";
import { messages } from "../messages";

type T = ReturnType<typeof messages.useT>;

function problemText(problem: IpListProblem, t: T): string {
  switch (problem.kind) {
    case "invalid":
      return t("ip.invalidLine", { line: problem.line, value: problem.value });
    case "tooLong":
      return t("ip.tooLong", { line: problem.line });
    case "tooMany":
      return t("ip.tooMany", { max: problem.max, count: problem.count });
  }
}

/**
 * The IP whitelist as a textarea, one entry per line, checked as typed with the API's rules (IPv4, IPv6, CIDR,
 * at most 50). Saving replaces the whole list; the server's canonical form comes back into the box.
 */
export function IpWhitelistEditor({ initial }: { initial: readonly string[] }) {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const save = useSaveIpWhitelist();
  const [text, setText] = useState(() => initial.join("\n"));
  const { entries, problems } = useMemo(() => checkIpList(text), [text]);
  const fieldId = useId();
  const helpId = `${fieldId}-help`;
  const errorsId = `${fieldId}-errors`;
  const invalid = problems.length > 0;

  const submit = () => {
    if (invalid) return;
    save.mutate(entries, {
      onSuccess: (r) => {
        setText(r.ipWhitelist.join("\n"));
        void message.success(t("ip.saved"));
      },
      onError: showError,
    });
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      data-testid="ip-editor"
    >
      <Flex vertical gap={12}>
        <Typography.Paragraph id={helpId} type="secondary" style={{ margin: 0 }}>
          {t("ip.help", { max: IP_WHITELIST_MAX })}
        </Typography.Paragraph>
        <label htmlFor={fieldId}>
          <Typography.Text strong>{t("ip.label")}</Typography.Text>
        </label>
        <Input.TextArea
          id={fieldId}
          value={text}
          onChange={(e) => setText(e.target.value)}
          autoSize={{ minRows: 6, maxRows: 20 }}
          status={invalid ? "error" : undefined}
          aria-invalid={invalid}
          aria-describedby={invalid ? `${helpId} ${errorsId}` : helpId}
          spellCheck={false}
          style={{ fontFamily: "monospace" }}
          data-testid="ip-input"
        />
        <Flex justify="space-between" align="center" wrap gap={8}>
          <Typography.Text type={entries.length > IP_WHITELIST_MAX ? "danger" : "secondary"} data-testid="ip-count">
            {t("ip.count", { count: entries.length, max: IP_WHITELIST_MAX })}
          </Typography.Text>
          <Button type="primary" htmlType="submit" disabled={invalid} loading={save.isPending} data-testid="ip-save">
            {t("ip.save")}
          </Button>
        </Flex>
        {invalid && (
          <div id={errorsId} role="alert" data-testid="ip-errors">
            {problems.slice(0, 10).map((problem) => (
              <Typography.Text key={`${problem.kind}-${"line" in problem ? problem.line : 0}`} type="danger">
                {problemText(problem, t)}
                <br />
              </Typography.Text>
            ))}
          </div>
        )}
        {!invalid && entries.length === 0 && <Alert type="info" showIcon title={t("ip.emptyNote")} />}
      </Flex>
    </form>
  );
}
