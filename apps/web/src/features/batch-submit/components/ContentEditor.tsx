import { RCS_CAROUSEL_MAX_CARDS, RCS_CAROUSEL_MIN_CARDS, RCS_TEXT_MAX, WS_TEXT_MAX } from "@switchboard/contracts";
import { ProductCode } from "@switchboard/contracts/codes";
import { Button, Col, Input, Row, Segmented, Select, Space, Tabs, Typography } from "antd";
import { useId, useState } from "react";
import { SenderIdSelect } from "../../sender-ids/components/SenderIdSelect";
import { messages } from "../messages";
import {
  type CardDraft,
  type ContentDraft,
  type ContentProblems,
  carouselCardField,
  emptyCard,
  RCS_CARD_SUGGESTIONS_MAX,
  RCS_DESCRIPTION_MAX,
  RCS_FALLBACK_AFTER_CHOICES,
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
        {/* Only the customer's approved sender ids (or none: the channel's default). */}
        <SenderIdSelect
          id={`${id}-sender`}
          data-testid="task-sender-id"
          value={draft.senderId}
          onChange={(senderId) => onChange({ senderId })}
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
  // The standalone card's fields live in the draft itself; seen here as one card.
  const card: CardDraft = {
    title: draft.rcsTitle,
    description: draft.rcsDescription,
    mediaUrl: draft.rcsMediaUrl,
    suggestions: draft.rcsSuggestions,
  };
  const setCard = (next: CardDraft) =>
    onChange({
      rcsTitle: next.title,
      rcsDescription: next.description,
      rcsMediaUrl: next.mediaUrl,
      rcsSuggestions: next.suggestions,
    });
  return (
    <Row gutter={16}>
      <Col xs={24} md={15}>
        <Field label={t("content.kind")}>
          <Segmented
            value={draft.rcsType}
            onChange={(v) => onChange({ rcsType: v })}
            options={[
              { value: "text" as const, label: <span data-testid="task-rcs-kind-text">{t("rcs.kindText")}</span> },
              { value: "card" as const, label: <span data-testid="task-rcs-kind-card">{t("rcs.kindCard")}</span> },
              {
                value: "carousel" as const,
                label: <span data-testid="task-rcs-kind-carousel">{t("rcs.kindCarousel")}</span>,
              },
            ]}
          />
        </Field>
        {draft.rcsType === "text" && (
          <>
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
            <SuggestionList
              label={t("rcs.suggestions", { max: RCS_TEXT_SUGGESTIONS_MAX })}
              list={draft.rcsSuggestions}
              max={RCS_TEXT_SUGGESTIONS_MAX}
              field="rcsSuggestions"
              problems={problems}
              onChange={(rcsSuggestions) => onChange({ rcsSuggestions })}
            />
          </>
        )}
        {draft.rcsType === "card" && (
          <CardFields
            card={card}
            onChange={setCard}
            problems={problems}
            names={{
              title: "rcsTitle",
              description: "rcsDescription",
              mediaUrl: "rcsMediaUrl",
              suggestions: "rcsSuggestions",
            }}
            testId="task-rcs"
          />
        )}
        {draft.rcsType === "carousel" && <CarouselFields draft={draft} onChange={onChange} problems={problems} />}
        <Field label={t("rcs.fallback")} htmlFor={`${id}-fallback`} problem={problems.rcsFallback}>
          <Input.TextArea
            id={`${id}-fallback`}
            data-testid="task-rcs-fallback"
            value={draft.rcsFallback}
            onChange={(e) => onChange({ rcsFallback: e.target.value })}
            autoSize={{ minRows: 2, maxRows: 6 }}
          />
        </Field>
        {draft.rcsFallback !== "" && (
          <>
            <div style={{ marginTop: -8, marginBottom: 16 }}>
              <SmsCounter text={draft.rcsFallback} testId="task-fallback-segments" />
            </div>
            <Field label={t("rcs.fallbackAfter")} htmlFor={`${id}-fallback-after`}>
              <Select<number>
                id={`${id}-fallback-after`}
                data-testid="task-rcs-fallback-after"
                value={draft.rcsFallbackAfter}
                onChange={(rcsFallbackAfter) => onChange({ rcsFallbackAfter })}
                style={{ maxWidth: 320 }}
                options={RCS_FALLBACK_AFTER_CHOICES.map((seconds) => ({
                  value: seconds,
                  label:
                    seconds === 0
                      ? t("rcs.fallbackAfter.0")
                      : seconds < 3600
                        ? t("rcs.fallbackAfter.minutes", { n: seconds / 60 })
                        : t("rcs.fallbackAfter.hours", { n: seconds / 3600 }),
                }))}
              />
            </Field>
          </>
        )}
      </Col>
      <Col xs={24} md={9}>
        <div style={{ position: "sticky", top: 16 }}>
          <RcsPreview draft={draft} />
        </div>
      </Col>
    </Row>
  );
}

/** A card's title, description, media link and buttons; `names` are its fields' problem names. */
function CardFields(props: {
  card: CardDraft;
  onChange: (next: CardDraft) => void;
  problems: ContentProblems;
  names: Record<keyof CardDraft, string>;
  testId: string;
}) {
  const { card, names, problems, testId } = props;
  const t = messages.useT();
  const id = useId();
  const set = (patch: Partial<CardDraft>) => props.onChange({ ...card, ...patch });
  return (
    <>
      <Field label={t("rcs.title")} htmlFor={`${id}-title`} problem={problems[names.title]} required>
        <Input
          id={`${id}-title`}
          data-testid={`${testId}-title`}
          value={card.title}
          onChange={(e) => set({ title: e.target.value })}
          showCount={{ formatter: ({ count }) => t("common.count", { count, max: RCS_TITLE_MAX }) }}
        />
      </Field>
      <Field label={t("rcs.description")} htmlFor={`${id}-desc`} problem={problems[names.description]}>
        <Input.TextArea
          id={`${id}-desc`}
          data-testid={`${testId}-description`}
          value={card.description}
          onChange={(e) => set({ description: e.target.value })}
          autoSize={{ minRows: 2, maxRows: 6 }}
          showCount={{ formatter: ({ count }) => t("common.count", { count, max: RCS_DESCRIPTION_MAX }) }}
        />
      </Field>
      <Field label={t("rcs.media")} htmlFor={`${id}-media`} problem={problems[names.mediaUrl]}>
        <Input
          id={`${id}-media`}
          data-testid={`${testId}-media`}
          type="url"
          value={card.mediaUrl}
          onChange={(e) => set({ mediaUrl: e.target.value })}
          placeholder="https://"
        />
      </Field>
      <SuggestionList
        label={t("rcs.cardSuggestions", { max: RCS_CARD_SUGGESTIONS_MAX })}
        list={card.suggestions}
        max={RCS_CARD_SUGGESTIONS_MAX}
        field={names.suggestions}
        problems={problems}
        onChange={(suggestions) => set({ suggestions })}
      />
    </>
  );
}

/** A carousel: 2 to 10 cards in tabs (add, remove), then the chip list under them. */
function CarouselFields({ draft, onChange, problems }: Omit<ContentEditorProps, "product">) {
  const t = messages.useT();
  const [active, setActive] = useState("0");
  const cards = draft.rcsCards;
  const setCards = (rcsCards: CardDraft[]) => onChange({ rcsCards });
  const cardHasProblem = (i: number) => Object.keys(problems).some((k) => k.startsWith(`rcsCards.${i}.`));
  return (
    <>
      <Field problem={problems.rcsCards}>
        <Tabs
          type="editable-card"
          size="small"
          activeKey={active}
          onChange={setActive}
          hideAdd
          tabBarExtraContent={
            <Button
              size="small"
              onClick={() => {
                setCards([...cards, emptyCard()]);
                setActive(String(cards.length));
              }}
              disabled={cards.length >= RCS_CAROUSEL_MAX_CARDS}
              data-testid="task-rcs-add-card"
            >
              + {t("rcs.addCard")}
            </Button>
          }
          onEdit={(key, action) => {
            if (action !== "remove" || cards.length <= RCS_CAROUSEL_MIN_CARDS) return;
            const index = Number(key);
            setCards(cards.filter((_, j) => j !== index));
            setActive(String(Math.max(0, Math.min(Number(active), cards.length - 2))));
          }}
          items={cards.map((card, i) => ({
            key: String(i),
            closable: cards.length > RCS_CAROUSEL_MIN_CARDS,
            label: (
              <Typography.Text type={cardHasProblem(i) ? "danger" : undefined} data-testid={`task-rcs-card-tab-${i}`}>
                {t("rcs.card", { n: i + 1 })}
              </Typography.Text>
            ),
            children: (
              <CardFields
                card={card}
                onChange={(next) => setCards(cards.map((c, j) => (j === i ? next : c)))}
                problems={problems}
                names={{
                  title: carouselCardField(i, "title"),
                  description: carouselCardField(i, "description"),
                  mediaUrl: carouselCardField(i, "mediaUrl"),
                  suggestions: carouselCardField(i, "suggestions"),
                }}
                testId={`task-rcs-card-${i}`}
              />
            ),
          }))}
        />
      </Field>
      <SuggestionList
        label={t("rcs.chips", { max: RCS_TEXT_SUGGESTIONS_MAX })}
        list={draft.rcsSuggestions}
        max={RCS_TEXT_SUGGESTIONS_MAX}
        field="rcsSuggestions"
        problems={problems}
        onChange={(rcsSuggestions) => onChange({ rcsSuggestions })}
      />
    </>
  );
}

/** Suggested replies and actions (the spec's action fields): reply, open a URL, dial a number. */
function SuggestionList(props: {
  label: string;
  list: SuggestionDraft[];
  max: number;
  /** The list's problem name (rcsSuggestions, rcsCards.0.suggestions). */
  field: string;
  problems: ContentProblems;
  onChange: (next: SuggestionDraft[]) => void;
}) {
  const t = messages.useT();
  const { list, max, field, problems } = props;
  return (
    <Field label={props.label} problem={problems[field]}>
      <Space orientation="vertical" style={{ width: "100%" }}>
        {list.map((s, i) => (
          <SuggestionRow
            // biome-ignore lint/suspicious/noArrayIndexKey: a suggestion is identified by its position
            key={i}
            field={`${field}.${i}`}
            value={s}
            problems={problems}
            onChange={(next) => props.onChange(list.map((x, j) => (j === i ? next : x)))}
            onRemove={() => props.onChange(list.filter((_, j) => j !== i))}
          />
        ))}
        <Button
          onClick={() => props.onChange([...list, { type: "reply", text: "", value: "" }])}
          disabled={list.length >= max}
        >
          {t("common.add")}
        </Button>
      </Space>
    </Field>
  );
}

function SuggestionRow(props: {
  /** Its problems' name: rcsSuggestions.0, rcsCards.1.suggestions.0... */
  field: string;
  value: SuggestionDraft;
  problems: ContentProblems;
  onChange: (next: SuggestionDraft) => void;
  onRemove: () => void;
}) {
  const t = messages.useT();
  const { field, value, problems } = props;
  const textProblem = problems[`${field}.text`];
  const valueProblem = problems[`${field}.value`];
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
