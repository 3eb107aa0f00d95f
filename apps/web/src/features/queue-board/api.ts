import type { QueueBoardTicket } from "@switchboard/contracts";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../lib/api";
import { config } from "../../lib/config";

/** POST /queue-board/ticket: a one-time link (a minute) to the API's queue board. */
export function useQueueBoardTicket() {
  return useMutation({
    mutationFn: () => api.post<QueueBoardTicket>("/queue-board/ticket"),
  });
}

/** The board's address: the ticket's path on the API's origin. */
export function queueBoardUrl(ticket: Pick<QueueBoardTicket, "path">, apiBase = config.apiBase): string {
  return apiBase + ticket.path;
}
