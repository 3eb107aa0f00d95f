import type { BatchContent, RcsContent, SmsContent, WsContent } from "@switchboard/contracts";
import { ProductCode } from "@switchboard/contracts/codes";
import { countSegmentsWithLinks, linkLengthOf } from "@switchboard/contracts/links";
import { Button, Card, Image, Space, Tag, Typography } from "antd";
import type { CSSProperties, ReactNode } from "react";
import { messages } from "../messages";

const phone: CSSProperties = {
  maxWidth: 380,
  padding: 16,
  borderRadius: 16,
  background: "#f2f4f7",
  border: "1px solid #e4e7ec",
};

const bubble = (color: string): CSSProperties => ({
  display: "inline-block",
  maxWidth: "100%",
  padding: "8px 12px",
  borderRadius: 12,
  background: color,
  whiteSpace: "pre-wrap",
  overflowWrap: "anywhere",
});

function Frame({ header, children, footer }: { header: ReactNode; children: ReactNode; footer?: ReactNode }) {
  const t = messages.useT();
  return (
    <figure data-testid="content-preview" aria-label={t("preview.title")} style={{ margin: 0 }}>
      <div style={phone}>
        <Typography.Text type="secondary" style={{ display: "block", marginBottom: 8, fontSize: 12 }}>
          {header}
        </Typography.Text>
        {children}
      </div>
      {footer && (
        <Typography.Text type="secondary" style={{ display: "block", marginTop: 8 }} data-testid="preview-meta">
          {footer}
        </Typography.Text>
      )}
    </figure>
  );
}

function SmsPreview({ content, senderId }: { content: SmsContent; senderId: string | null }) {
  const t = messages.useT();
  // Tracked links counted as the short links the recipients got, as the batch was priced.
  const count = countSegmentsWithLinks(content.text, linkLengthOf(content));
  const sender = content.senderId ?? senderId;
  return (
    <Frame
      header={sender ? t("preview.sender", { sender }) : "SMS"}
      footer={t("preview.sms.segments", {
        segments: count.segments,
        characters: count.characters,
        encoding: t(count.encoding === "gsm7" ? "preview.sms.gsm7" : "preview.sms.ucs2"),
      })}
    >
      <div style={bubble("#ffffff")} data-testid="preview-text">
        {content.text}
      </div>
    </Frame>
  );
}

function WsPreview({ content }: { content: WsContent }) {
  const t = messages.useT();
  const body = content.body;
  if (body.type === "text") {
    return (
      <Frame header="WhatsApp">
        <div style={bubble("#dcf8c6")} data-testid="preview-text">
          {body.text}
        </div>
      </Frame>
    );
  }
  if (body.type === "media") {
    return (
      <Frame header="WhatsApp">
        <div style={bubble("#dcf8c6")} data-testid="preview-media">
          {body.mediaType === "image" ? (
            <Image src={body.link} alt={t("preview.rcs.media")} preview={false} />
          ) : (
            <Typography.Link href={body.link} target="_blank" rel="noreferrer">
              {body.filename ?? body.link}
            </Typography.Link>
          )}
          {body.caption && <div style={{ marginTop: 4 }}>{body.caption}</div>}
        </div>
      </Frame>
    );
  }
  return (
    <Frame header="WhatsApp">
      <div style={bubble("#dcf8c6")} data-testid="preview-template">
        <Typography.Text strong>
          {t("preview.ws.template", { name: body.name, language: body.language })}
        </Typography.Text>
        {body.header && (
          <div style={{ marginTop: 8 }} data-testid="preview-template-header">
            {t("preview.ws.header")}:{" "}
            {body.header.type === "text" ? (
              body.header.text
            ) : (
              <Typography.Link href={body.header.link} target="_blank" rel="noreferrer">
                {body.header.link}
              </Typography.Link>
            )}
          </div>
        )}
        {body.parameters.length > 0 && (
          <ol style={{ margin: "8px 0 0", paddingInlineStart: 20 }} aria-label={t("preview.ws.parameters")}>
            {body.parameters.map((p, i) => (
              // Parameters are positional ({{1}}, {{2}}...): the index is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: positional parameters
              <li key={i}>{p}</li>
            ))}
          </ol>
        )}
        {body.buttons.map((b) => (
          <div key={`${b.subType}-${b.index}`} style={{ marginTop: 4 }} data-testid="preview-template-button">
            {t(b.subType === "url" ? "preview.ws.buttonUrl" : "preview.ws.buttonPayload", {
              index: b.index + 1,
              value: b.parameter,
            })}
          </div>
        ))}
      </div>
    </Frame>
  );
}

function Suggestions({ items }: { items: RcsContent["body"]["suggestions"] }) {
  if (items.length === 0) return null;
  return (
    <Space wrap size={6} style={{ marginTop: 8 }}>
      {items.map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: suggestions have no id of their own
        <Button key={i} size="small" shape="round" tabIndex={-1}>
          {s.type === "url" ? `🔗 ${s.text}` : s.type === "dial" ? `📞 ${s.text}` : s.text}
        </Button>
      ))}
    </Space>
  );
}

function RcsPreview({ content }: { content: RcsContent }) {
  const t = messages.useT();
  const body = content.body;
  const fallback = content.fallbackText ? (
    <span>
      {t("preview.rcs.fallback")} {content.fallbackText}
    </span>
  ) : undefined;
  if (body.type === "text") {
    return (
      <Frame header="RCS" footer={fallback}>
        <div style={bubble("#ffffff")} data-testid="preview-text">
          {body.text}
        </div>
        <Suggestions items={body.suggestions} />
      </Frame>
    );
  }
  if (body.type === "carousel") {
    return (
      <Frame header={`RCS · ${t("preview.rcs.carousel", { count: body.cards.length })}`} footer={fallback}>
        <div style={{ display: "flex", gap: 8, overflowX: "auto" }} data-testid="preview-carousel">
          {body.cards.map((card, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a carousel's cards are positional
            <div key={i} style={{ flex: `0 0 ${body.cardWidth === "SMALL" ? 160 : 240}px` }}>
              <RichCard card={card} />
            </div>
          ))}
        </div>
        <Suggestions items={body.suggestions} />
      </Frame>
    );
  }
  return (
    <Frame header={`RCS · ${t("preview.rcs.card")}`} footer={fallback}>
      <RichCard card={body} />
    </Frame>
  );
}

type RcsCard = Extract<RcsContent["body"], { type: "carousel" }>["cards"][number];

function RichCard({ card }: { card: RcsCard }) {
  const t = messages.useT();
  return (
    <Card
      size="small"
      data-testid="preview-card"
      cover={card.mediaUrl ? <Image src={card.mediaUrl} alt={t("preview.rcs.media")} preview={false} /> : undefined}
    >
      <Typography.Text strong>{card.title}</Typography.Text>
      {card.description && (
        <Typography.Paragraph style={{ margin: "4px 0 0", whiteSpace: "pre-wrap" }}>
          {card.description}
        </Typography.Paragraph>
      )}
      <Suggestions items={card.suggestions} />
    </Card>
  );
}

/** The message as its recipient will see it, per product. */
export function ContentPreview({ content, senderId = null }: { content: BatchContent; senderId?: string | null }) {
  switch (content.product) {
    case ProductCode.SMS:
      return <SmsPreview content={content} senderId={senderId} />;
    case ProductCode.WS:
      return <WsPreview content={content} />;
    case ProductCode.RCS:
      return <RcsPreview content={content} />;
    default:
      return <Tag>{String((content as { product: unknown }).product)}</Tag>;
  }
}
