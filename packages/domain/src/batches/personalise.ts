// Personalised campaigns (docs/batches.md, "Personalised campaigns"): `{{column}}` placeholders in a batch's
// content are filled per recipient with the cells of its row in the uploaded file.
//
//   - what is filled: SMS text; RCS text, card titles and descriptions, and the fallback text; WhatsApp template
//     body parameters. Nothing else (suggestions, links, media, WhatsApp free-form text) is read for placeholders;
//   - a name is compared without case and surrounding spaces, with the file header's column names;
//   - `{{link:...}}` belongs to tracked links (filled elsewhere) and is never a variable: it is left as written,
//     and so is any placeholder a recipient has no value for (old batches' literal braces stay as they were);
//   - one function builds each recipient's copy (fillSmsText, fillRcsBody, fillWsBody), called where the message
//     is built (the workers' messageBuilder); the same filling prices a recipient when its batch is made.
// Pure: the API, its pre-submit worker threads and the workers all run it.
import {
  type BatchContent,
  countSegmentsWithLinks,
  linkLengthOf,
  ProductCode,
  RCS_CARD_DESCRIPTION_MAX,
  RCS_CARD_TITLE_MAX,
  RCS_TEXT_MAX,
  type RcsContent,
  RejectReason,
  SMS_MAX_SEGMENTS,
  TaskType,
  WS_TEMPLATE_PARAMETER_MAX,
  type WsContent,
} from "@switchboard/contracts";
import { badRequest } from "../errors";

/** A recipient's values: the used columns' cells by variable name (lower case), as stored in recipients.vars. */
export type RecipientVars = Readonly<Record<string, string>>;

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
/** Tracked links' placeholders (`{{link:https://...}}`): never a column. */
const LINK_PREFIX = "link:";

/** How a placeholder's or a header cell's name is compared. */
export function variableName(name: string): string {
  return name.trim().toLowerCase();
}

function namesIn(text: string | undefined, into: Set<string>): void {
  if (!text?.includes("{{")) return;
  for (const m of text.matchAll(PLACEHOLDER)) {
    const name = variableName(m[1] as string);
    if (name !== "" && !name.startsWith(LINK_PREFIX)) into.add(name);
  }
}

/** Every text of a content that is filled per recipient (see the top of this file). */
function filledTexts(content: BatchContent): Array<string | undefined> {
  switch (content.product) {
    case ProductCode.SMS:
      return [content.text];
    case ProductCode.WS:
      return content.body.type === "template" ? content.body.parameters : [];
    case ProductCode.RCS: {
      const b = content.body;
      const cards = b.type === "carousel" ? b.cards : b.type === "card" ? [b] : [];
      const main = b.type === "text" ? [b.text] : cards.flatMap((c) => [c.title, c.description]);
      return [...main, content.fallbackText];
    }
  }
}

/**
 * The variables a batch's content uses (lower case, in order of first use); empty when it is not personalised.
 * Screening sends nothing, so it fills nothing.
 */
export function contentVariables(taskType: number, content: BatchContent | undefined): string[] {
  if (!content || taskType === TaskType.SCREENING) return [];
  const names = new Set<string>();
  for (const text of filledTexts(content)) namesIn(text, names);
  return [...names];
}

/** Numbers given in the request (modes 1 and 2, their pre-submit check) have no columns: a variable is refused. */
export function assertNoVariables(input: { taskType: number; content?: BatchContent | undefined }): void {
  const [first] = contentVariables(input.taskType, input.content);
  if (first !== undefined) throw badRequest("batch.variables_need_file", { column: first });
}

/** A text with its placeholders filled from `vars`; unchanged without vars (a batch that is not personalised). */
export function fillText(text: string, vars: RecipientVars | null): string {
  if (vars === null || !text.includes("{{")) return text;
  return text.replace(PLACEHOLDER, (whole, name: string) => vars[variableName(name)] ?? whole);
}

function fillOptional(text: string | undefined, vars: RecipientVars): string | undefined {
  return text === undefined ? undefined : fillText(text, vars);
}

/** An RCS body with its text, card titles and descriptions filled (the same object without vars). */
export function fillRcsBody(body: RcsContent["body"], vars: RecipientVars | null): RcsContent["body"] {
  if (vars === null) return body;
  if (body.type === "text") return { ...body, text: fillText(body.text, vars) };
  const card = <C extends { title: string; description?: string | undefined }>(c: C): C => {
    const description = fillOptional(c.description, vars);
    return { ...c, title: fillText(c.title, vars), ...(description === undefined ? {} : { description }) };
  };
  if (body.type === "card") return card(body);
  return { ...body, cards: body.cards.map(card) };
}

/** A WhatsApp body with its template's body parameters filled (the same object without vars). */
export function fillWsBody(body: WsContent["body"], vars: RecipientVars | null): WsContent["body"] {
  if (vars === null || body.type !== "template") return body;
  return { ...body, parameters: body.parameters.map((p) => fillText(p, vars)) };
}

/** The filled texts a provider refuses beyond a length (the schema's bounds of the unfilled content). */
function boundedTexts(content: BatchContent): Array<{ text: string; max: number }> {
  if (content.product === ProductCode.WS) {
    const b = content.body;
    return b.type === "template" ? b.parameters.map((text) => ({ text, max: WS_TEMPLATE_PARAMETER_MAX })) : [];
  }
  if (content.product !== ProductCode.RCS) return [];
  const b = content.body;
  if (b.type === "text") return [{ text: b.text, max: RCS_TEXT_MAX }];
  const cards = b.type === "carousel" ? b.cards : [b];
  return cards.flatMap((c) => [
    { text: c.title, max: RCS_CARD_TITLE_MAX },
    ...(c.description === undefined ? [] : [{ text: c.description, max: RCS_CARD_DESCRIPTION_MAX }]),
  ]);
}

/** What a recipient's row gives: its values and chargeable units, or why it is refused. */
export type RowFilled =
  | {
      ok: true;
      /** recipients.vars as JSON text. */
      varsJson: string;
      /** SMS segments of the filled text (1 for WS and RCS). */
      units: number;
      /** RCS with fallback text: the filled fallback text's segments (else 0). */
      fallbackUnits: number;
    }
  | { ok: false; reason: RejectReason };

/**
 * Fills a personalised batch's content with each row's values, as the file is read: a row whose used cell is
 * empty is refused (reason 6), and so is one whose filled text would be longer than its field allows (reason 7):
 * an SMS text (or RCS fallback text) over SMS_MAX_SEGMENTS, an RCS text, card title or description, or a WS
 * template parameter past the length the content's schema (and the provider) allows.
 */
export class RowFilling {
  /** Texts whose filled length a provider bounds (RCS text and cards, WS template parameters) with placeholders. */
  private readonly bounded: Array<{ text: Compiled; max: number }>;
  private readonly smsText: Compiled | null;
  private readonly fallbackText: Compiled | null;
  /** Tracked links are counted as the short links they are sent as (links.ts), as the unfilled text is. */
  private readonly linkLength: number | null;

  constructor(
    content: BatchContent,
    /** The used variables, in the order the row's values come (contentVariables). */
    readonly variables: readonly string[],
  ) {
    const compiled = (text: string) => compile(text, variables);
    this.smsText = content.product === ProductCode.SMS ? compiled(content.text) : null;
    this.fallbackText =
      content.product === ProductCode.RCS && content.fallbackText ? compiled(content.fallbackText) : null;
    this.linkLength = content.product === ProductCode.WS ? null : linkLengthOf(content);
    this.bounded = boundedTexts(content)
      .filter((b) => b.text.includes("{{"))
      .map((b) => ({ text: compiled(b.text), max: b.max }));
  }

  fill(values: readonly string[]): RowFilled {
    const vars: Record<string, string> = {};
    for (let i = 0; i < this.variables.length; i++) {
      const value = values[i] ?? "";
      if (value === "") return { ok: false, reason: RejectReason.MISSING_VARIABLE };
      vars[this.variables[i] as string] = value;
    }
    for (const b of this.bounded) {
      if (render(b.text, values).length > b.max) return { ok: false, reason: RejectReason.FILLED_TOO_LONG };
    }
    let units = 1;
    let fallbackUnits = 0;
    if (this.smsText !== null) units = countSegmentsWithLinks(render(this.smsText, values), this.linkLength).segments;
    if (this.fallbackText !== null)
      fallbackUnits = countSegmentsWithLinks(render(this.fallbackText, values), this.linkLength).segments;
    if (units > SMS_MAX_SEGMENTS || fallbackUnits > SMS_MAX_SEGMENTS)
      return { ok: false, reason: RejectReason.FILLED_TOO_LONG };
    return { ok: true, varsJson: JSON.stringify(vars), units, fallbackUnits };
  }
}

/**
 * A text cut once at its variables' placeholders, filled per row by concatenation (a million rows are filled while
 * a file is read: no pattern is matched per row). literals has one more element than slots; a placeholder that is
 * no variable stays inside its literal, as fillText leaves it.
 */
interface Compiled {
  literals: string[];
  /** Per placeholder, the index of its variable in the row's values. */
  slots: number[];
}

function compile(text: string, variables: readonly string[]): Compiled {
  const literals: string[] = [];
  const slots: number[] = [];
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    const at = variables.indexOf(variableName(m[1] as string));
    if (at < 0) continue;
    literals.push(text.slice(last, m.index));
    slots.push(at);
    last = m.index + m[0].length;
  }
  literals.push(text.slice(last));
  return { literals, slots };
}

/** The same as fillText with these values (each non-empty), without matching the text again. */
function render(c: Compiled, values: readonly string[]): string {
  let out = c.literals[0] as string;
  for (let i = 0; i < c.slots.length; i++)
    out += (values[c.slots[i] as number] as string) + (c.literals[i + 1] as string);
  return out;
}
