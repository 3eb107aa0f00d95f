// The JSON body of POST /{phone-number-id}/messages for our WS content.
//
// Reference followed: Meta's Cloud API "Send messages" and "Template messages" pages and the official WhatsApp
// Node.js SDK's TemplateObject (whatsapp.github.io/WhatsApp-Nodejs-SDK/api-reference/types/TemplateObject):
//   {messaging_product: "whatsapp", recipient_type: "individual", to, type: "text", text: {preview_url, body}}
//   {..., type: "template", template: {name, language: {code}, components: [
//       {type: "header", parameters: [{type: "text", text} | {type: "image", image: {link}}]},
//       {type: "body", parameters: [{type: "text", text}, ...]},
//       {type: "button", sub_type: "quick_reply", index: "0", parameters: [{type: "payload", payload}]},
//       {type: "button", sub_type: "url", index: "1", parameters: [{type: "text", text}]}]}}
//   {..., type: "image" | "video" | "document", image: {link, caption}, document: {link, caption, filename}}
//
// A batch sends one body object to many recipients, so everything after "to" is serialized once per body object
// (a WeakMap keyed by its identity) and each send only splices the recipient in front of it.
import type { WsContent } from "@switchboard/contracts";

export type WhatsappBody = WsContent["body"];

type Json = Record<string, unknown>;

/** The message object without messaging_product / recipient_type / to, as the Cloud API expects it. */
export function messagePayload(body: WhatsappBody): Json {
  switch (body.type) {
    case "text":
      return { type: "text", text: { preview_url: body.previewUrl ?? false, body: body.text } };
    case "media": {
      const media: Json = { link: body.link };
      if (body.caption !== undefined) media.caption = body.caption;
      // filename is only meaningful (and only documented) for documents
      if (body.mediaType === "document" && body.filename !== undefined) media.filename = body.filename;
      return { type: body.mediaType, [body.mediaType]: media };
    }
    case "template": {
      const components: Json[] = [];
      const header = body.header;
      if (header !== undefined) {
        const parameter =
          header.type === "text"
            ? { type: "text", text: header.text }
            : { type: header.type, [header.type]: { link: header.link } };
        components.push({ type: "header", parameters: [parameter] });
      }
      const parameters = body.parameters ?? [];
      if (parameters.length > 0) {
        components.push({ type: "body", parameters: parameters.map((text) => ({ type: "text", text })) });
      }
      for (const button of body.buttons ?? []) {
        components.push({
          type: "button",
          sub_type: button.subType,
          index: String(button.index),
          parameters: [
            button.subType === "quick_reply"
              ? { type: "payload", payload: button.parameter }
              : { type: "text", text: button.parameter },
          ],
        });
      }
      const template: Json = { name: body.name, language: { code: body.language } };
      if (components.length > 0) template.components = components;
      return { type: "template", template };
    }
  }
}

const tails = new WeakMap<WhatsappBody, string>();

/** `,"type":...}`: the serialized payload without its opening brace, cached per body object. */
function tailOf(body: WhatsappBody): string {
  let tail = tails.get(body);
  if (tail === undefined) {
    tail = `,${JSON.stringify(messagePayload(body)).slice(1)}`;
    tails.set(body, tail);
  }
  return tail;
}

/** The request body for one recipient. */
export function messageRequestBody(to: string, body: WhatsappBody): string {
  return `{"messaging_product":"whatsapp","recipient_type":"individual","to":${JSON.stringify(to)}${tailOf(body)}`;
}
