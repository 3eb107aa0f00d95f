import { Typography, theme } from "antd";
import type { CSSProperties } from "react";
import { messages } from "../messages";
import type { ContentDraft } from "../model";

/** Roughly how a handset shows the RCS message: a bubble or a card, with the suggestion chips under it. */
export function RcsPreview({ draft }: { draft: ContentDraft }) {
  const t = messages.useT();
  const { token } = theme.useToken();
  const card = draft.rcsType === "card";
  const empty = card ? draft.rcsTitle.trim() === "" : draft.rcsText.trim() === "";
  const bubble: CSSProperties = {
    background: token.colorBgContainer,
    border: `1px solid ${token.colorBorderSecondary}`,
    borderRadius: 12,
    overflow: "hidden",
    maxWidth: 260,
  };
  const media = draft.rcsMediaUrl.trim();
  return (
    <figure
      aria-label={t("preview.title")}
      style={{ margin: 0, padding: 12, background: token.colorFillTertiary, borderRadius: 16, minHeight: 160 }}
    >
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t("preview.title")}
      </Typography.Text>
      {empty ? (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
          {t("preview.empty")}
        </Typography.Paragraph>
      ) : (
        <div style={{ marginTop: 8 }}>
          <div style={bubble}>
            {card && media.startsWith("https://") && (
              <img src={media} alt="" style={{ display: "block", width: "100%", maxHeight: 140, objectFit: "cover" }} />
            )}
            <div style={{ padding: "8px 12px", whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
              {card ? (
                <>
                  <Typography.Text strong>{draft.rcsTitle}</Typography.Text>
                  {draft.rcsDescription.trim() !== "" && <div>{draft.rcsDescription}</div>}
                </>
              ) : (
                draft.rcsText
              )}
            </div>
          </div>
          {draft.rcsSuggestions.length > 0 && (
            <div style={{ display: "flex", flexWrap: "wrap", gap: 6, marginTop: 8, maxWidth: 260 }}>
              {draft.rcsSuggestions.map((s, i) => (
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
          )}
        </div>
      )}
    </figure>
  );
}
