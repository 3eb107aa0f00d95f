import { RCS_TEXT_MAX, WS_TEXT_MAX } from "@switchboard/contracts";
import { ProductCode } from "@switchboard/contracts/codes";
import { Button, Col, Input, Row, Segmented, Select, Space, Typography } from "antd";
import { useId } from "react";
import { messages } from "../messages";
import {
  type ContentDraft,
  type ContentProblems,
  RCS_CARD_SUGGESTIONS_MAX,
  RCS_DESCRIPTION_MAX,
  RCS_SUGGESTION_TEXT_MAX,
  RCS_TEXT_SUGGESTIONS_MAX,
  RCS_TITLE_MAX,
  type SuggestionDraft,
  type SuggestionType,
  WS_PARAMETERS_MAX,
} from "../model";
import { Field } from "./Field";
import { RcsPreview } from "./RcsPreview";
import { SmsCounter } from "./SmsCounter";
import { WsTemplatePicker } from "./WsTemplatePicker";

export interface ContentEditorProps {
  product: ProductCode;
  draft: ContentDraft;
  onChange: (patch: Partial<ContentDraft>) => void;
  /** Problems to show (empty until the user first asks for the check). */
  problems: ContentProblems;
}

/** The message content of the product: SMS text and sender, WS text or template, RCS text or card. */
export function ContentEditor(props: ContentEditorProps) {
  if (props.product === ProductCode.SMS) return <SmsEditor {...props} />;
  if (props.product === ProductCode.WS) return <WsEditor {...props} />;
  return <RcsEditor {...props} />;
}

function SmsEditor({ draft, onChange, problems }: ContentEditorProps) {
  const t = messages.useT();
  const id = useId();
  return (
    <>
      <Field label={t("sms.text")} htmlFor={`${id}-text`} problem={problems.smsText} required>
        <Input.TextArea
          id={`${id}-text`}
          data-testid="task-sms-text"
          value={draft.smsText}
          onChange={(e) => onChange({ smsText: e.target.value })}
          placeholder={t("sms.textPlaceholder")}
          autoSize={{ minRows: 4, maxRows: 10 }}
        />
      </Field>
      <div style={{ marginTop: -8, marginBottom: 16 }}>
        <SmsCounter text={draft.smsText} testId="task-segments" />
      </div>
      <Field label={t("sms.sender")} htmlFor={`${id}-sender`} problem={problems.senderId}>
        <Input
          id={`${id}-sender`}
          data-testid="task-sender-id"
          value={draft.senderId}
          onChange={(e) => onChange({ senderId: e.target.value })}
          placeholder={t("sms.senderPlaceholder")}
          maxLength={17}
          style={{ maxWidth: 320 }}
        />
      </Field>
    </>
  );
}

function WsEditor({ draft, onChange, problems }: ContentEditorProps) {
  const t = messages.useT();
  const id = useId();
  return (
    <>
      <Field label={t("content.kind")}>
        <Segmented
          value={draft.wsType}
          onChange={(v) => onChange({ wsType: v })}
          options={[
            { value: "text" as const, label: t("ws.kindText") },
            { value: "template" as const, label: t("ws.kindTemplate") },
          ]}
        />
      </Field>
      {draft.wsType === "text" ? (
        <Field label={t("content.text")} htmlFor={`${id}-text`} problem={problems.wsText} required>
          <Input.TextArea
            id={`${id}-text`}
            data-testid="task-ws-text"
            value={draft.wsText}
            onChange={(e) => onChange({ wsText: e.target.value })}
            autoSize={{ minRows: 4, maxRows: 10 }}
            showCount={{ formatter: ({ count }) => t("common.count", { count, max: WS_TEXT_MAX }) }}
          />
        </Field>
      ) : (
        <>
          <WsTemplatePicker draft={draft} onChange={onChange} />
          <Row gutter={12}>
            <Col xs={24} sm={14}>
              <Field label={t("ws.template")} htmlFor={`${id}-name`} problem={problems.wsTemplate} required>
                <Input
                  id={`${id}-name`}
                  data-testid="task-ws-template"
                  value={draft.wsTemplate}
                  onChange={(e) => onChange({ wsTemplate: e.target.value })}
                  placeholder={t("ws.templatePlaceholder")}
                />
              </Field>
            </Col>
            <Col xs={24} sm={10}>
              <Field label={t("ws.language")} htmlFor={`${id}-lang`} problem={problems.wsLanguage} required>
                <Input
                  id={`${id}-lang`}
                  data-testid="task-ws-language"
                  value={draft.wsLanguage}
                  onChange={(e) => onChange({ wsLanguage: e.target.value })}
                  placeholder={t("ws.languagePlaceholder")}
                />
              </Field>
            </Col>
          </Row>
          <Field label={t("ws.parameters")} problem={problems.wsParameters}>
            <Space orientation="vertical" style={{ width: "100%" }}>
              {draft.wsParameters.length === 0 && (
                <Typography.Text type="secondary">{t("ws.noParameters")}</Typography.Text>
              )}
              {draft.wsParameters.map((value, i) => {
                const problem = problems[`wsParameters.${i}`];
                return (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a parameter is identified by its position
                  <div key={i}>
                    <Space.Compact style={{ width: "100%" }}>
                      <Space.Addon>{`{{${i + 1}}}`}</Space.Addon>
                      <Input
                        aria-label={t("ws.parameter", { index: i + 1 })}
                        status={problem ? "error" : undefined}
                        value={value}
                        onChange={(e) =>
                          onChange({ wsParameters: draft.wsParameters.map((p, j) => (j === i ? e.target.value : p)) })
                        }
                      />
                      <Button onClick={() => onChange({ wsParameters: draft.wsParameters.filter((_, j) => j !== i) })}>
                        {t("common.remove")}
                      </Button>
                    </Space.Compact>
                    {problem && <Typography.Text type="danger">{t(problem.key, problem.params)}</Typography.Text>}
                  </div>
                );
              })}
              <Button
                onClick={() => onChange({ wsParameters: [...draft.wsParameters, ""] })}
                disabled={draft.wsParameters.length >= WS_PARAMETERS_MAX}
              >
                {t("common.add")}
              </Button>
            </Space>
          </Field>
          {draft.wsHeaderType !== "" && (
            <Field
              label={t(draft.wsHeaderType === "text" ? "ws.headerText" : "ws.headerMedia", {
                kind: t(`ws.headerKind.${draft.wsHeaderType}`),
              })}
              htmlFor={`${id}-header`}
              problem={problems.wsHeader}
              required
            >
              <Input
                id={`${id}-header`}
                data-testid="task-ws-header"
                value={draft.wsHeader}
                onChange={(e) => onChange({ wsHeader: e.target.value })}
                placeholder={draft.wsHeaderType === "text" ? undefined : "https://"}
              />
            </Field>
          )}
          {draft.wsButtons.map((b, i) => (
            <Field
              key={`${b.subType}-${b.index}`}
              label={t(b.subType === "url" ? "ws.buttonUrl" : "ws.buttonPayload", { index: b.index + 1 })}
              htmlFor={`${id}-button-${i}`}
              problem={problems[`wsButtons.${i}`]}
              required={b.subType === "url"}
            >
              <Input
                id={`${id}-button-${i}`}
                data-testid={`task-ws-button-${b.index}`}
                value={b.parameter}
                onChange={(e) =>
                  onChange({
                    wsButtons: draft.wsButtons.map((x, j) => (j === i ? { ...x, parameter: e.target.value } : x)),
                  })
                }
              />
            </Field>
          ))}
        </>
      )}
    </>
  );
}

function RcsEditor({ draft, onChange, problems }: ContentEditorProps) {
  const t = messages.useT();
  const id = useId();
  const maxSuggestions = draft.rcsType === "card" ? RCS_CARD_SUGGESTIONS_MAX : RCS_TEXT_SUGGESTIONS_MAX;
  return (
    <Row gutter={16}>
      <Col xs={24} md={15}>
        <Field label={t("content.kind")}>
          <Segmented
            value={draft.rcsType}
            onChange={(v) => onChange({ rcsType: v })}
            options={[
              { value: "text" as const, label: t("rcs.kindText") },
              { value: "card" as const, label: t("rcs.kindCard") },
            ]}
          />
        </Field>
        {draft.rcsType === "text" ? (
          <Field label={t("content.text")} htmlFor={`${id}-text`} problem={problems.rcsText} required>
            <Input.TextArea
              id={`${id}-text`}
              data-testid="task-rcs-text"
              value={draft.rcsText}
              onChange={(e) => onChange({ rcsText: e.target.value })}
              autoSize={{ minRows: 4, maxRows: 10 }}
              showCount={{ formatter: ({ count }) => t("common.count", { count, max: RCS_TEXT_MAX }) }}
            />
          </Field>
        ) : (
          <>
            <Field label={t("rcs.title")} htmlFor={`${id}-title`} problem={problems.rcsTitle} required>
              <Input
                id={`${id}-title`}
                data-testid="task-rcs-title"
                value={draft.rcsTitle}
                onChange={(e) => onChange({ rcsTitle: e.target.value })}
                showCount={{ formatter: ({ count }) => t("common.count", { count, max: RCS_TITLE_MAX }) }}
              />
            </Field>
            <Field label={t("rcs.description")} htmlFor={`${id}-desc`} problem={problems.rcsDescription}>
              <Input.TextArea
                id={`${id}-desc`}
                value={draft.rcsDescription}
                onChange={(e) => onChange({ rcsDescription: e.target.value })}
                autoSize={{ minRows: 2, maxRows: 6 }}
                showCount={{ formatter: ({ count }) => t("common.count", { count, max: RCS_DESCRIPTION_MAX }) }}
              />
            </Field>
            <Field label={t("rcs.media")} htmlFor={`${id}-media`} problem={problems.rcsMediaUrl}>
              <Input
                id={`${id}-media`}
                type="url"
                value={draft.rcsMediaUrl}
                onChange={(e) => onChange({ rcsMediaUrl: e.target.value })}
                placeholder="https://"
              />
            </Field>
          </>
        )}
        <Field label={t("rcs.suggestions", { max: maxSuggestions })} problem={problems.rcsSuggestions}>
          <Space orientation="vertical" style={{ width: "100%" }}>
            {draft.rcsSuggestions.map((s, i) => (
              <SuggestionRow
                // biome-ignore lint/suspicious/noArrayIndexKey: a suggestion is identified by its position
                key={i}
                index={i}
                value={s}
                problems={problems}
                onChange={(next) =>
                  onChange({ rcsSuggestions: draft.rcsSuggestions.map((x, j) => (j === i ? next : x)) })
                }
                onRemove={() => onChange({ rcsSuggestions: draft.rcsSuggestions.filter((_, j) => j !== i) })}
              />
            ))}
            <Button
              onClick={() =>
                onChange({ rcsSuggestions: [...draft.rcsSuggestions, { type: "reply", text: "", value: "" }] })
              }
              disabled={draft.rcsSuggestions.length >= maxSuggestions}
            >
              {t("common.add")}
            </Button>
          </Space>
        </Field>
        <Field label={t("rcs.fallback")} htmlFor={`${id}-fallback`} problem={problems.rcsFallback}>
          <Input.TextArea
            id={`${id}-fallback`}
            value={draft.rcsFallback}
            onChange={(e) => onChange({ rcsFallback: e.target.value })}
            autoSize={{ minRows: 2, maxRows: 6 }}
          />
        </Field>
        {draft.rcsFallback !== "" && (
          <div style={{ marginTop: -8, marginBottom: 16 }}>
            <SmsCounter text={draft.rcsFallback} />
          </div>
        )}
      </Col>
      <Col xs={24} md={9}>
        <RcsPreview draft={draft} />
      </Col>
    </Row>
  );
}

function SuggestionRow(props: {
  index: number;
  value: SuggestionDraft;
  problems: ContentProblems;
  onChange: (next: SuggestionDraft) => void;
  onRemove: () => void;
}) {
  const t = messages.useT();
  const { index, value, problems } = props;
  const textProblem = problems[`rcsSuggestions.${index}.text`];
  const valueProblem = problems[`rcsSuggestions.${index}.value`];
  const shown = textProblem ?? valueProblem;
  return (
    <div>
      <Space.Compact style={{ width: "100%" }}>
        <Select<SuggestionType>
          aria-label={t("rcs.suggestionType")}
          value={value.type}
          onChange={(type) => props.onChange({ ...value, type })}
          style={{ width: 120 }}
          options={(["reply", "url", "dial"] as const).map((type) => ({
            value: type,
            label: t(`rcs.suggestion.${type}`),
          }))}
        />
        <Input
          aria-label={t("rcs.suggestionText")}
          placeholder={t("rcs.suggestionText")}
          status={textProblem ? "error" : undefined}
          value={value.text}
          maxLength={RCS_SUGGESTION_TEXT_MAX}
          onChange={(e) => props.onChange({ ...value, text: e.target.value })}
          style={{ width: 160 }}
        />
        <Input
          aria-label={t(`rcs.suggestionValue.${value.type}`)}
          placeholder={t(`rcs.suggestionValue.${value.type}`)}
          status={valueProblem ? "error" : undefined}
          value={value.value}
          onChange={(e) => props.onChange({ ...value, value: e.target.value })}
        />
        <Button onClick={props.onRemove}>{t("common.remove")}</Button>
      </Space.Compact>
      {shown && <Typography.Text type="danger">{t(shown.key, shown.params)}</Typography.Text>}
    </div>
  );
}
