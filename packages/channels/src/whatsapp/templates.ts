// What a message template asks of a message, read from its components as WhatsApp lists them (Meta "Template
// components"; "Send message templates": body and header parameters are positional, {{1}}..{{n}}; a media header
// needs its media in the message; a URL button whose URL ends in {{1}} needs its suffix; a quick reply's payload
// is optional), and the check of a message's values against it. The API runs the check before charging: WhatsApp
// would refuse a mismatch with 132000 only after the money was taken.
export type TemplateHeaderKind = "TEXT" | "IMAGE" | "DOCUMENT" | "VIDEO" | "LOCATION";

export interface TemplateNeeds {
  /** Highest {{n}} of the body: the number of body parameters a message must give. */
  bodyParams: number;
  headerKind: TemplateHeaderKind | null;
  /** Whether the message must give the header's value (a text variable, or the media of a media header). */
  headerParam: boolean;
  /** Buttons whose value the message must give (URL buttons with a variable suffix). */
  buttonParams: Array<{ index: number; subType: "url" }>;
  /** Quick reply buttons, whose payload the message may give. */
  quickReplies: number[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Highest {{n}} in a text (0 when none). */
function highestPlaceholder(text: unknown): number {
  if (typeof text !== "string") return 0;
  let max = 0;
  for (const m of text.matchAll(/\{\{\s*(\d{1,2})\s*\}\}/g)) max = Math.max(max, Number(m[1]));
  return max;
}

const HEADER_KINDS = new Set<string>(["TEXT", "IMAGE", "DOCUMENT", "VIDEO", "LOCATION"]);

export function templateNeeds(components: readonly unknown[]): TemplateNeeds {
  const needs: TemplateNeeds = {
    bodyParams: 0,
    headerKind: null,
    headerParam: false,
    buttonParams: [],
    quickReplies: [],
  };
  for (const c of components) {
    if (!isObj(c)) continue;
    const type = String(c.type ?? "").toUpperCase();
    if (type === "BODY") needs.bodyParams = highestPlaceholder(c.text);
    if (type === "HEADER") {
      const format = String(c.format ?? "TEXT").toUpperCase();
      needs.headerKind = HEADER_KINDS.has(format) ? (format as TemplateHeaderKind) : null;
      needs.headerParam = format === "TEXT" ? highestPlaceholder(c.text) > 0 : needs.headerKind !== null;
    }
    if (type === "BUTTONS" && Array.isArray(c.buttons)) {
      c.buttons.forEach((b, index) => {
        if (!isObj(b)) return;
        const kind = String(b.type ?? "").toUpperCase();
        if (kind === "URL" && highestPlaceholder(b.url) > 0) needs.buttonParams.push({ index, subType: "url" });
        if (kind === "QUICK_REPLY") needs.quickReplies.push(index);
      });
    }
  }
  return needs;
}

/** What a template asks, as stored with it (whatsapp_templates: buttons in one list with their sub type). */
export interface StoredTemplateNeeds {
  bodyParams: number;
  headerKind: TemplateHeaderKind | null;
  headerParam: boolean;
  buttonParams: Array<{ index: number; subType: "url" | "quick_reply" }>;
}

export function storedNeeds(components: readonly unknown[]): StoredTemplateNeeds {
  const n = templateNeeds(components);
  return {
    bodyParams: n.bodyParams,
    headerKind: n.headerKind,
    headerParam: n.headerParam,
    buttonParams: [...n.buttonParams, ...n.quickReplies.map((index) => ({ index, subType: "quick_reply" as const }))],
  };
}

export function needsOfStored(s: StoredTemplateNeeds): TemplateNeeds {
  return {
    bodyParams: s.bodyParams,
    headerKind: s.headerKind,
    headerParam: s.headerParam,
    buttonParams: s.buttonParams.flatMap((b) =>
      b.subType === "url" ? [{ index: b.index, subType: "url" as const }] : [],
    ),
    quickReplies: s.buttonParams.flatMap((b) => (b.subType === "quick_reply" ? [b.index] : [])),
  };
}

/** A template message's values, as the WS content carries them. */
export interface TemplateValues {
  parameters: readonly string[];
  header?: { type: "text" | "image" | "document" | "video" } | undefined;
  buttons: ReadonlyArray<{ index: number; subType: "quick_reply" | "url" }>;
}

export type TemplateMismatch =
  | { problem: "params"; expected: number; given: number }
  | { problem: "header"; expected: string }
  | { problem: "buttons"; expected: string };

/** null when the values fit the template; else what does not fit. */
export function checkTemplateValues(needs: TemplateNeeds, values: TemplateValues): TemplateMismatch | null {
  if (values.parameters.length !== needs.bodyParams) {
    return { problem: "params", expected: needs.bodyParams, given: values.parameters.length };
  }
  const headerType = needs.headerKind?.toLowerCase();
  if (needs.headerParam && values.header?.type !== headerType) return { problem: "header", expected: headerType ?? "" };
  if (!needs.headerParam && values.header) return { problem: "header", expected: "none" };
  const wanted = needs.buttonParams.map((b) => `url:${b.index}`);
  const allowed = new Set([...wanted, ...needs.quickReplies.map((i) => `quick_reply:${i}`)]);
  const given = new Set(values.buttons.map((b) => `${b.subType}:${b.index}`));
  const describe = () => (wanted.length > 0 ? wanted.join(", ") : "none");
  if (wanted.some((w) => !given.has(w))) return { problem: "buttons", expected: describe() };
  if ([...given].some((g) => !allowed.has(g))) return { problem: "buttons", expected: describe() };
  return null;
}
