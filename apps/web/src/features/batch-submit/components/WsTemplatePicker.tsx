import type { SendableTemplate } from "@switchboard/contracts";
import { ProductCode } from "@switchboard/contracts/codes";
import { useQuery } from "@tanstack/react-query";
import { Select, Typography } from "antd";
import { batchSubmitKeys, fetchWsTemplates } from "../api/batch-submit";
import { messages } from "../messages";
import type { ContentDraft, WsHeaderType } from "../model";

const keyOf = (t: { name: string; language: string }) => `${t.name}|${t.language}`;

const CATEGORIES = {
  MARKETING: "ws.category.MARKETING",
  UTILITY: "ws.category.UTILITY",
  AUTHENTICATION: "ws.category.AUTHENTICATION",
} as const;

/** The body's text as the recipient reads it: each {{n}} replaced by its value, or left as {{n}} while empty. */
export function fillTemplateBody(template: SendableTemplate, parameters: readonly string[]): string | null {
  const body = template.components.find(
    (c): c is { type: string; text: string } =>
      typeof c === "object" && c !== null && (c as { type?: unknown }).type === "BODY",
  );
  if (!body || typeof body.text !== "string") return null;
  return body.text.replace(/\{\{\s*(\d{1,2})\s*\}\}/g, (whole, n: string) => parameters[Number(n) - 1] || whole);
}

const HEADER_TYPES: Record<string, WsHeaderType> = {
  TEXT: "text",
  IMAGE: "image",
  DOCUMENT: "document",
  VIDEO: "video",
};

/**
 * The header and button inputs a template takes: a header value when its header has a variable (text) or is media,
 * a value per dynamic button. What was typed for the same input is kept.
 */
export function templateInputs(
  template: SendableTemplate,
  draft: Pick<ContentDraft, "wsHeaderType" | "wsHeader" | "wsButtons">,
): Pick<ContentDraft, "wsHeaderType" | "wsHeader" | "wsButtons"> {
  const headerType = (template.headerParam && HEADER_TYPES[template.headerKind ?? ""]) || "";
  return {
    wsHeaderType: headerType,
    wsHeader: headerType !== "" && headerType === draft.wsHeaderType ? draft.wsHeader : "",
    wsButtons: [...template.buttons]
      .sort((a, b) => a.index - b.index)
      .map((b) => ({
        ...b,
        parameter: draft.wsButtons.find((d) => d.index === b.index && d.subType === b.subType)?.parameter ?? "",
      })),
  };
}

/**
 * Choosing an approved template fills its name and language and gives it as many parameter fields as its body
 * takes; below, the body as the recipient will read it. Typing a name by hand stays possible (a template synced
 * later, an account the admin has not synced): the server checks what it knows before charging.
 */
export function WsTemplatePicker({
  draft,
  onChange,
}: {
  draft: ContentDraft;
  onChange: (patch: Partial<ContentDraft>) => void;
}) {
  const t = messages.useT();
  const templates = useQuery({
    queryKey: batchSubmitKeys.wsTemplates(ProductCode.WS),
    queryFn: ({ signal }) => fetchWsTemplates(ProductCode.WS, signal),
  });
  const list = templates.data ?? [];
  const chosen = list.find((x) => keyOf(x) === keyOf({ name: draft.wsTemplate, language: draft.wsLanguage }));
  const preview = chosen ? fillTemplateBody(chosen, draft.wsParameters) : null;
  return (
    <div style={{ marginBottom: 16 }}>
      <Select
        data-testid="task-ws-template-pick"
        style={{ width: "100%" }}
        showSearch={{ optionFilterProp: "label" }}
        loading={templates.isLoading}
        placeholder={t("ws.pickTemplate")}
        value={chosen ? keyOf(chosen) : undefined}
        notFoundContent={templates.isError ? t("ws.templatesFailed") : t("ws.noTemplates")}
        options={list.map((x) => ({
          value: keyOf(x),
          label: `${x.name} · ${x.language} · ${
            x.category in CATEGORIES ? t(CATEGORIES[x.category as keyof typeof CATEGORIES]) : x.category
          }`,
        }))}
        onChange={(value: string) => {
          const picked = list.find((x) => keyOf(x) === value);
          if (!picked) return;
          onChange({
            wsTemplate: picked.name,
            wsLanguage: picked.language,
            // As many fields as the body takes, keeping what was typed already.
            wsParameters: Array.from({ length: picked.bodyParams }, (_, i) => draft.wsParameters[i] ?? ""),
            ...templateInputs(picked, draft),
          });
        }}
      />
      {preview !== null && (
        <Typography.Paragraph
          data-testid="task-ws-template-preview"
          style={{ marginTop: 8, marginBottom: 0, whiteSpace: "pre-wrap" }}
          type="secondary"
        >
          {preview}
        </Typography.Paragraph>
      )}
    </div>
  );
}
