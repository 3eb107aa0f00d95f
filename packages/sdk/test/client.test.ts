// The client's requests on the wire (a fetch of our own records them) and its types. The real API answering it is
// apps/api/test/sdk.test.ts.
import { describe, expect, expectTypeOf, it } from "vitest";
import { createSwitchboardClient, type ErrorEnvelope, type V1Answer, type V1Data } from "../src/index";

const KEY = "sk_test_key_000000000000000000000000000000000";

/** A fetch that records each request and answers with the given status and JSON. */
function recorder(
  status = 200,
  json: unknown = { code: 0, message: "ok", data: { balance: "1.0000", currency: "CNY" } },
) {
  const requests: Request[] = [];
  const fetch = async (req: Request) => {
    requests.push(req.clone());
    return new Response(JSON.stringify(json), { status, headers: { "content-type": "application/json" } });
  };
  return { requests, fetch };
}

describe("createSwitchboardClient", () => {
  it("sends the key as a bearer token and the lang header on every call", async () => {
    const r = recorder();
    const sb = createSwitchboardClient({
      baseUrl: "https://api.example.com/",
      apiKey: KEY,
      lang: "en",
      fetch: r.fetch,
    });
    const { data, error } = await sb.GET("/v1/balance");
    expect(error).toBeUndefined();
    expect(data?.data.balance).toBe("1.0000");
    const req = r.requests[0]!;
    expect(req.method).toBe("GET");
    expect(req.url).toBe("https://api.example.com/v1/balance");
    expect(req.headers.get("authorization")).toBe(`Bearer ${KEY}`);
    expect(req.headers.get("lang")).toBe("en");
  });

  it("omits lang when not given, keeps extra headers, and takes per-call ones such as Idempotency-Key", async () => {
    const r = recorder(200, { code: 0, message: "ok", data: {} });
    const sb = createSwitchboardClient({
      baseUrl: "http://127.0.0.1:3000",
      apiKey: KEY,
      fetch: r.fetch,
      headers: { "x-request-id": "trace-12345678", authorization: "Bearer not-this-one" },
    });
    await sb.POST("/v1/messages", {
      body: {
        productCode: 3000,
        taskType: 2,
        submitMode: 2,
        numbers: ["+8613800138000"],
        content: { product: 3000, text: "Sale today" },
      },
      headers: { "Idempotency-Key": "order-1001" },
    });
    const req = r.requests[0]!;
    expect(req.headers.get("lang")).toBeNull();
    expect(req.headers.get("authorization")).toBe(`Bearer ${KEY}`);
    expect(req.headers.get("x-request-id")).toBe("trace-12345678");
    expect(req.headers.get("idempotency-key")).toBe("order-1001");
    expect(req.headers.get("content-type")).toBe("application/json");
    expect(await req.json()).toMatchObject({ submitMode: 2, numbers: ["+8613800138000"] });
  });

  it("fills path parameters and serialises the query", async () => {
    const r = recorder(200, { code: 0, message: "ok", data: { list: [], total: 0 } });
    const sb = createSwitchboardClient({ baseUrl: "http://127.0.0.1:3000", apiKey: KEY, fetch: r.fetch });
    await sb.GET("/v1/batches/{id}/messages", { params: { path: { id: "42" }, query: { page: 2, phone: "+1202" } } });
    await sb.GET("/v1/batches", { params: { query: { status: 22, stage: "finish" } } });
    expect(r.requests.map((q) => q.url)).toEqual([
      "http://127.0.0.1:3000/v1/batches/42/messages?page=2&phone=%2B1202",
      "http://127.0.0.1:3000/v1/batches?status=22&stage=finish",
    ]);
  });

  it("answers an error status as a typed error envelope", async () => {
    const r = recorder(404, { code: 1, message: "batch not found", data: null });
    const sb = createSwitchboardClient({ baseUrl: "http://127.0.0.1:3000", apiKey: KEY, lang: "en", fetch: r.fetch });
    const { data, error, response } = await sb.GET("/v1/batches/{id}", { params: { path: { id: "1" } } });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error).toEqual({ code: 1, message: "batch not found", data: null });
    // Typed from the route's document: code and message. (openapi-fetch 0.17's Readable<> drops properties typed
    // exactly `null`, such as the envelope's `data: null`: openapi-ts/openapi-typescript#2717.)
    expectTypeOf(error!.code).toEqualTypeOf<1 | 401>();
    expectTypeOf(error!.message).toEqualTypeOf<ErrorEnvelope["message"]>();
  });

  it("refuses to be made without a key", () => {
    expect(() => createSwitchboardClient({ baseUrl: "http://127.0.0.1:3000", apiKey: "" })).toThrow(TypeError);
  });

  it("types each route's answer from the API's document", () => {
    expectTypeOf<V1Data<"/v1/balance", "get">>().toEqualTypeOf<{ balance: string; currency: string }>();
    expectTypeOf<V1Answer<"/v1/balance", "get">["code"]>().toEqualTypeOf<0>();
    expectTypeOf<V1Answer<"/v1/balance", "get", 401>["message"]>().toEqualTypeOf<string>();
    expectTypeOf<V1Data<"/v1/batches", "get">["total"]>().toEqualTypeOf<number>();
  });
});
