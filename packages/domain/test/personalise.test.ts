// Personalised campaigns (docs/batches.md): which placeholders a content uses, how a recipient's copy is filled,
// how a file's header gives the variables and each row its values, and how each row is counted and priced.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BatchContent, countSegments, ProductCode, RejectReason, TaskType } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readNumberFile } from "../src/batches/number-file";
import { NumberSorter } from "../src/batches/number-sorter";
import { tallyOf } from "../src/batches/number-tally";
import {
  assertNoVariables,
  contentVariables,
  fillRcsBody,
  fillText,
  fillWsBody,
  RowFilling,
} from "../src/batches/personalise";
import { priceOf } from "../src/batches/quote";
import { AppError } from "../src/errors";

const sms = (text: string): BatchContent => ({ product: ProductCode.SMS, text });

describe("placeholders", () => {
  it("are the content's {{names}}, without case or spaces, in order of first use; links are not variables", () => {
    expect(
      contentVariables(TaskType.MESSAGE, sms("Hi {{ Name }}, {{code}} / {{NAME}} {{link:https://x.io/a}}")),
    ).toEqual(["name", "code"]);
    expect(contentVariables(TaskType.MESSAGE, sms("no braces, {single} or {{}}"))).toEqual([]);
    // Screening sends nothing, so it fills nothing.
    expect(contentVariables(TaskType.SCREENING, sms("{{name}}"))).toEqual([]);
  });

  it("are read in RCS text, card titles and descriptions and fallback text, and WS template body parameters", () => {
    const rcs: BatchContent = {
      product: ProductCode.RCS,
      body: {
        type: "carousel",
        cardWidth: "MEDIUM",
        suggestions: [],
        cards: [
          { title: "{{a}}", description: "{{b}}", mediaHeight: "MEDIUM", suggestions: [] },
          { title: "t", mediaHeight: "MEDIUM", suggestions: [] },
        ],
      },
      fallbackText: "{{c}}",
    };
    expect(contentVariables(TaskType.MESSAGE, rcs)).toEqual(["a", "b", "c"]);
    const ws: BatchContent = {
      product: ProductCode.WS,
      body: { type: "template", name: "order", language: "en", parameters: ["{{first}}", "x"], buttons: [] },
    };
    expect(contentVariables(TaskType.MESSAGE, ws)).toEqual(["first"]);
  });

  it("in numbers sent without a file are refused, naming the column", () => {
    expect(() => assertNoVariables({ taskType: TaskType.MESSAGE, content: sms("Hi {{Name}}") })).toThrow(AppError);
    try {
      assertNoVariables({ taskType: TaskType.MESSAGE, content: sms("Hi {{Name}}") });
    } catch (err) {
      expect(err).toMatchObject({ status: 400, key: "batch.variables_need_file", params: { column: "name" } });
    }
    expect(() =>
      assertNoVariables({ taskType: TaskType.MESSAGE, content: sms("{{link:https://a.io}}") }),
    ).not.toThrow();
  });
});

describe("filling", () => {
  it("fills every placeholder it has a value for and leaves the others (and links) as written", () => {
    const vars = { name: "Li", code: "42" };
    expect(fillText("Hi {{ NAME }}, {{code}}{{code}} {{other}} {{link:https://x.io}}", vars)).toBe(
      "Hi Li, 4242 {{other}} {{link:https://x.io}}",
    );
    // Without vars (a batch that is not personalised) the very same text comes back.
    const text = "literal {{braces}}";
    expect(fillText(text, null)).toBe(text);
  });

  it("fills RCS cards and WS template parameters, and returns the same body without vars", () => {
    const card = {
      type: "card" as const,
      title: "{{a}}",
      description: "x {{b}}",
      orientation: "VERTICAL" as const,
      mediaHeight: "MEDIUM" as const,
      suggestions: [],
    };
    expect(fillRcsBody(card, { a: "A", b: "B" })).toMatchObject({ title: "A", description: "x B" });
    expect(fillRcsBody(card, null)).toBe(card);
    const tpl = { type: "template" as const, name: "n", language: "en", parameters: ["{{a}}", "b"], buttons: [] };
    expect(fillWsBody(tpl, { a: "A" })).toMatchObject({ parameters: ["A", "b"] });
    expect(fillWsBody(tpl, null)).toBe(tpl);
  });

  it("counts each row's segments after filling and refuses an empty cell or a text too long", () => {
    const filling = new RowFilling(sms("Dear {{name}}, {{code}}"), ["name", "code"]);
    expect(filling.fill(["Li", "7"])).toEqual({
      ok: true,
      varsJson: JSON.stringify({ name: "Li", code: "7" }),
      units: 1,
      fallbackUnits: 0,
    });
    expect(filling.fill(["x".repeat(200), "7"])).toMatchObject({ ok: true, units: 2 });
    // UCS-2 once a value needs it: 70 characters a segment.
    expect(filling.fill(["李".repeat(70), "7"])).toMatchObject({
      ok: true,
      units: countSegments(`Dear ${"李".repeat(70)}, 7`).segments,
    });
    expect(filling.fill(["Li", ""])).toEqual({ ok: false, reason: RejectReason.MISSING_VARIABLE });
    expect(filling.fill(["x".repeat(1600), "7"])).toEqual({ ok: false, reason: RejectReason.FILLED_TOO_LONG });
  });

  it("counts the text fillText would build: repeated variables, other placeholders and links left as written", () => {
    const text = `{{a}}{{ A }} {{other}} {{link:https://x.io/a}} ${"é".repeat(60)}`;
    const filling = new RowFilling(sms(text), ["a"]);
    const value = "ü".repeat(50);
    expect(filling.fill([value])).toMatchObject({
      ok: true,
      units: countSegments(fillText(text, { a: value })).segments,
    });
  });

  it("refuses a row whose filled RCS card title or WS template parameter is longer than its field allows", () => {
    const card: BatchContent = {
      product: ProductCode.RCS,
      body: {
        type: "card",
        title: "Hello {{name}}",
        orientation: "VERTICAL",
        mediaHeight: "MEDIUM",
        suggestions: [],
      },
    };
    const rcs = new RowFilling(card, ["name"]);
    expect(rcs.fill(["x".repeat(194)])).toMatchObject({ ok: true, units: 1, fallbackUnits: 0 });
    expect(rcs.fill(["x".repeat(195)])).toEqual({ ok: false, reason: RejectReason.FILLED_TOO_LONG });
    const ws: BatchContent = {
      product: ProductCode.WS,
      body: { type: "template", name: "n", language: "en", parameters: ["{{code}}"], buttons: [] },
    };
    const tpl = new RowFilling(ws, ["code"]);
    expect(tpl.fill(["7".repeat(1024)])).toMatchObject({ ok: true });
    expect(tpl.fill(["7".repeat(1025)])).toEqual({ ok: false, reason: RejectReason.FILLED_TOO_LONG });
  });

  it("prices a row by its own units, and an RCS row by the larger of its price and its fallback's", () => {
    expect(priceOf({ unitPrice: 80n, fallbackUnitPrice: null }, 3, 0)).toEqual({
      price: 240n,
      primaryPrice: null,
      fallbackPrice: null,
    });
    expect(priceOf({ unitPrice: 300n, fallbackUnitPrice: 80n }, 1, 5)).toEqual({
      price: 400n,
      primaryPrice: 300n,
      fallbackPrice: 400n,
    });
  });
});

describe("a file's variables", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "sb-personalise-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const stored = async (text: string) => {
    const file = path.join(dir, `${Math.random().toString(36).slice(2)}.csv`);
    await writeFile(file, text);
    return file;
  };

  it("are the header's other columns; each number comes with its row's cells of the used ones", async () => {
    const file = await stored("Name;Mobile;Code;Note\nLi;+12025550181;7;x\nWu;+12025550182;;y\n");
    const rows: Array<[string, string[] | undefined]> = [];
    let columns: string[] = [];
    await readNumberFile(file, (raw, values) => rows.push([raw, values]), undefined, {
      variables: ["code", "name"],
      columns: (names) => {
        columns = names;
      },
    });
    expect(columns).toEqual(["Name", "Code", "Note"]);
    expect(rows).toEqual([
      ["+12025550181", ["7", "Li"]],
      ["+12025550182", ["", "Wu"]],
    ]);
  });

  it("refuses a variable the header does not name, and any variable in a file without a header", async () => {
    const headed = await stored("phone,name\n+12025550181,Li\n");
    await expect(readNumberFile(headed, () => {}, undefined, { variables: ["nick"] })).rejects.toMatchObject({
      status: 400,
      key: "batch.variable_unknown",
      params: { column: "nick" },
    });
    // The number column is not a variable.
    await expect(readNumberFile(headed, () => {}, undefined, { variables: ["phone"] })).rejects.toMatchObject({
      key: "batch.variable_unknown",
    });
    const bare = await stored("+12025550181,Li\n");
    await expect(readNumberFile(bare, () => {}, undefined, { variables: ["name"] })).rejects.toMatchObject({
      key: "batch.variables_need_header",
    });
  });

  it("sorted and tallied: unfilled rows refused (their number taken), the others counted by units per country", async () => {
    const sorted = new NumberSorter({ domesticCountry: null }, false, new RowFilling(sms("Hi {{name}}"), ["name"]));
    sorted.add("+12025550181", ["Li"]);
    sorted.add("+12025550182", [""]);
    sorted.add("+12025550182", ["Wu"]);
    sorted.add("+8613912345678", ["x".repeat(200)]);
    expect(sorted.phoneList()).toEqual(["+12025550181", "+8613912345678"]);
    expect(sorted).toMatchObject({ unfilled: 1, duplicate: 1, total: 4 });
    expect(sorted.rejectedReason).toEqual([RejectReason.MISSING_VARIABLE, RejectReason.DUPLICATE]);
    const tally = tallyOf(sorted, undefined, new Set(), ["name"]);
    expect(tally.unitsPerCountry).toEqual(
      new Map([
        ["US", new Map([["1:0", 1]])],
        ["CN", new Map([["2:0", 1]])],
      ]),
    );
    expect(tally).toMatchObject({ unfilled: 1, columns: ["name"] });
  });
});
