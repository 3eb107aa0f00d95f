import { Segmented, Typography, theme } from "antd";
import { type CSSProperties, type ReactNode, useState } from "react";
import { messages } from "../messages";
import type { CardDraft, ContentDraft, SuggestionDraft } from "../model";
import { SmsCounter } from "./SmsCounter";

const PHONE_WIDTH = 280;
const BUBBLE_WIDTH = 220;

/**
 * What the recipient sees, in a phone's frame: the RCS message (a bubble, a rich card or a carousel that
 * scrolls sideways, with its suggestion chips), or the SMS fallback text for a number that cannot receive RCS.
 */
export function RcsPreview({ draft }: { draft: ContentDraft }) {
  const t = messages.useT();
  const [shown, setShown] = useState<"rcs" | "sms">("rcs");
  return (
    <figure aria-label={t("preview.title")} style={{ margin: 0 }} data-testid="rcs-preview">
      <Segmented<"rcs" | "sms">
        size="small"
        value={shown}
        onChange={setShown}
        style={{ marginBottom: 8 }}
        options={[
          { value: "rcs", label: <span data-testid="preview-rcs">{t("preview.rcs")}</span> },
          { value: "sms", label: <span data-testid="preview-sms">{t("preview.sms")}</span> },
        ]}
      />
      <Phone>{shown === "rcs" ? <RcsMessage draft={draft} /> : <SmsMessage text={draft.rcsFallback} />}</Phone>
    </figure>
  );
}

/** A handset: notch, the conversation's header (the brand), and the messages under it. */
function Phone({ children }: { children: ReactNode }) {
  const t = messages.useT();
  const { token } = theme.useToken();
  return (
    <div
      style={{
        width: PHONE_WIDTH,
        maxWidth: "100%",
        border: `8px solid ${token.colorText}`,
        borderRadius: 32,
        background: token.colorBgLayout,
        overflow: "hidden",
      }}
    >
      <div style={{ display: "flex", justifyContent: "center", padding: "6px 0 2px" }}>
        <div style={{ width: 72, height: 6, borderRadius: 3, background: token.colorTextQuaternary }} />
      </div>
      <div
        style={{
          padding: "6px 12px",
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
          background: token.colorBgContainer,
          fontWeight: 600,
        }}
      >
        {t("preview.agent")}
      </div>
      <div style={{ padding: 12, minHeight: 320, maxHeight: 520, overflowY: "auto" }}>
        <Typography.Text type="secondary" style={{ display: "block", textAlign: "center", fontSize: 11 }}>
          {t("preview.now")}
        </Typography.Text>
        {children}
      </div>
    </div>
  );
}

function RcsMessage({ draft }: { draft: ContentDraft }) {
  const t = messages.useT();
  if (draft.rcsType === "text") {
    if (draft.rcsText.trim() === "") return <Empty text={t("preview.empty")} />;
    return (
      <>
        <Bubble>{draft.rcsText}</Bubble>
        <Chips list={draft.rcsSuggestions} />
      </>
    );
  }
  if (draft.rcsType === "card") {
    const card = {
      title: draft.rcsTitle,
      description: draft.rcsDescription,
      mediaUrl: draft.rcsMediaUrl,
      suggestions: draft.rcsSuggestions,
    };
    if (card.title.trim() === "") return <Empty text={t("preview.empty")} />;
    return <Card card={card} width={BUBBLE_WIDTH} />;
  }
  if (draft.rcsCards.every((c) => c.title.trim() === "")) return <Empty text={t("preview.empty")} />;
  return (
    <>
      <div style={{ display: "flex", gap: 8, overflowX: "auto", paddingBottom: 4 }} data-testid="preview-carousel">
        {draft.rcsCards.map((card, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the cards have no identity but their place
          <Card key={i} card={card} width={170} />
        ))}
      </div>
      <Chips list={draft.rcsSuggestions} />
    </>
  );
}

function SmsMessage({ text }: { text: string }) {
  const t = messages.useT();
  if (text === "") return <Empty text={t("preview.smsEmpty")} />;
  return (
    <>
      <Bubble>{text}</Bubble>
      <div style={{ marginTop: 6 }}>
        <SmsCounter text={text} />
      </div>
    </>
  );
}

function Empty({ text }: { text: string }) {
  return (
    <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
      {text}
    </Typography.Paragraph>
  );
}

function useBubbleStyle(width: number): CSSProperties {
  const { token } = theme.useToken();
  return {
    background: token.colorBgContainer,
    border: `1px solid ${token.colorBorderSecondary}`,
    borderRadius: 12,
    overflow: "hidden",
    width,
    flex: "0 0 auto",
    marginTop: 8,
  };
}

function Bubble({ children }: { children: ReactNode }) {
  const style = useBubbleStyle(BUBBLE_WIDTH);
  return (
    <div style={{ ...style, width: "auto", maxWidth: BUBBLE_WIDTH, padding: "8px 12px" }}>
      <div style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>{children}</div>
    </div>
  );
}

/** A rich card: media on top, title, description, then its own buttons. */
function Card({ card, width }: { card: CardDraft; width: number }) {
  const style = useBubbleStyle(width);
  const { token } = theme.useToken();
  const media = card.mediaUrl.trim();
  return (
    <div style={style}>
      {media.startsWith("https://") && (
        <img src={media} alt="" style={{ display: "block", width: "100%", height: 110, objectFit: "cover" }} />
      )}
      <div style={{ padding: "8px 12px", whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
        <Typography.Text strong>{card.title || "…"}</Typography.Text>
        {card.description.trim() !== "" && <div style={{ fontSize: 13 }}>{card.description}</div>}
      </div>
      {card.suggestions.map((s, i) => (
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: the buttons have no identity but their place
          key={i}
          style={{
            borderTop: `1px solid ${token.colorBorderSecondary}`,
            color: token.colorPrimary,
            textAlign: "center",
            padding: "6px 8px",
            fontSize: 13,
          }}
        >
          {s.text || "…"}
        </div>
      ))}
    </div>
  );
}

/** Suggestion chips under the message. */
function Chips({ list }: { list: SuggestionDraft[] }) {
  const { token } = theme.useToken();
  if (list.length === 0) return null;
  return (
    <div style={{ display: "flex", flexWrap: "wrap", gap: 6, marginTop: 8 }}>
      {list.map((s, i) => (
        <span
          // biome-ignore lint/suspicious/noArrayIndexKey: the chips have no identity but their place
          key={i}
          style={{
            border: `1px solid ${token.colorPrimary}`,
            color: token.colorPrimary,
            borderRadius: 16,
            padding: "2px 10px",
            fontSize: 12,
          }}
        >
          {s.text || "…"}
        </span>
      ))}
    </div>
  );
}
