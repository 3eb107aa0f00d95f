// The JSON body of POST /v1/phones/{E.164}/agentMessages for our RCS content, and the messageId RBM is given.
//
// References followed: the RBM REST reference's AgentMessage ({contentMessage, ttl | expireTime}; ttl is a
// Duration, "3.5s"), AgentContentMessage ({text | richCard | ..., suggestions: max 11}), RichCard
// ({standaloneCard: {cardOrientation, thumbnailImageAlignment, cardContent}} | {carouselCard: {cardWidth,
// cardContents}}), CardContent ({title, description, media: {height, contentInfo: {fileUrl}}, suggestions: max 4}),
// Suggestion ({reply: {text, postbackData}} | {action: {text, postbackData, openUrlAction: {url} | dialAction:
// {phoneNumber}}}); the protos in google-business-communications/java-rcsbusinessmessaging (content.proto,
// rbm.proto) for the same field names; phones.agentMessages.create: "messageId ... must be a UUID".
//
// Every recipient of a batch gets the same body object and the recipient is in the URL, so the whole request
// body is serialized once per (body object, ttl) and reused as is.
import { hash } from "node:crypto";
import type { RcsContent } from "@switchboard/contracts";

export type RcsBody = RcsContent["body"];
type Suggestion = Extract<RcsBody, { type: "text" }>["suggestions"][number];
type Card = Extract<RcsBody, { type: "carousel" }>["cards"][number];
type Json = Record<string, unknown>;

function suggestionOf(s: Suggestion): Json {
  switch (s.type) {
    case "reply":
      // The postback data is what a tap brings back (machine-readable, whatever the label); without one of
      // ours, the label itself, so a tap is still recognisable.
      return { reply: { text: s.text, postbackData: s.postbackData ?? s.text } };
    case "url":
      return { action: { text: s.text, postbackData: s.text, openUrlAction: { url: s.url } } };
    case "dial":
      return { action: { text: s.text, postbackData: s.text, dialAction: { phoneNumber: s.phoneNumber } } };
  }
}

function withSuggestions(target: Json, suggestions: readonly Suggestion[] | undefined): Json {
  if (suggestions !== undefined && suggestions.length > 0) target.suggestions = suggestions.map(suggestionOf);
  return target;
}

function cardContentOf(card: Card): Json {
  const content: Json = { title: card.title };
  if (card.description !== undefined) content.description = card.description;
  if (card.mediaUrl !== undefined) {
    content.media = { height: card.mediaHeight ?? "MEDIUM", contentInfo: { fileUrl: card.mediaUrl } };
  }
  return withSuggestions(content, card.suggestions);
}

/** AgentContentMessage for our content. */
export function contentMessageOf(body: RcsBody): Json {
  switch (body.type) {
    case "text":
      return withSuggestions({ text: body.text }, body.suggestions);
    case "card": {
      const standaloneCard: Json = {
        cardOrientation: body.orientation ?? "VERTICAL",
        cardContent: cardContentOf(body),
      };
      // Which side a horizontal card's image takes (StandaloneCard.thumbnailImageAlignment); ours: the left.
      if (standaloneCard.cardOrientation === "HORIZONTAL" && body.mediaUrl !== undefined) {
        standaloneCard.thumbnailImageAlignment = "LEFT";
      }
      return { richCard: { standaloneCard } };
    }
    case "carousel":
      return withSuggestions(
        {
          richCard: {
            carouselCard: { cardWidth: body.cardWidth ?? "MEDIUM", cardContents: body.cards.map(cardContentOf) },
          },
        },
        body.suggestions,
      );
  }
}

const serialized = new WeakMap<RcsBody, { ttlSeconds: number | undefined; json: string }>();

/** The request body, cached per body object (a batch uses one ttl, so one entry per body suffices). */
export function agentMessageBody(body: RcsBody, ttlSeconds?: number): string {
  const cached = serialized.get(body);
  if (cached !== undefined && cached.ttlSeconds === ttlSeconds) return cached.json;
  const message: Json = { contentMessage: contentMessageOf(body) };
  if (ttlSeconds !== undefined) message.ttl = `${ttlSeconds}s`;
  const json = JSON.stringify(message);
  serialized.set(body, { ttlSeconds, json });
  return json;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Namespace of our name-based ids (a fixed random UUID): "Switchboard RBM message". */
const NAMESPACE = Buffer.from("3f1c2b7e9a4d4c1b8e2f6a5d0c9b8e71", "hex");

/**
 * The RBM messageId of our message id: the id itself when it is a UUID already, else a name-based UUID (RFC 9562
 * version 5: SHA-1 of a namespace and the name). Deterministic, so every retry of a recipient carries the same
 * id and RBM's duplicate check still holds; RBM refuses ids that are not UUIDs.
 */
export function rbmMessageId(messageId: string): string {
  if (UUID.test(messageId)) return messageId.toLowerCase();
  const digest = hash("sha1", Buffer.concat([NAMESPACE, Buffer.from(messageId, "utf8")]), "buffer");
  digest[6] = ((digest[6] as number) & 0x0f) | 0x50;
  digest[8] = ((digest[8] as number) & 0x3f) | 0x80;
  const hex = digest.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function isUuid(text: string): boolean {
  return UUID.test(text);
}
