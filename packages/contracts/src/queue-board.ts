// The queue board (BullMQ's jobs, @bull-board) for staff: the API's ticket answer, which the back office turns
// into a link. How the board is opened and guarded: apps/api/src/modules/queue-board.
import { z } from "zod";

/** POST /queue-board/ticket: where to open the board (the API's path, one use, within a minute). */
export const queueBoardTicket = z.object({
  /** Path on the API's own origin, e.g. /admin/queues/open?ticket=...; the client prefixes its API base. */
  path: z.string().max(200),
  /** True for everyone but the super admin: the board shows jobs and cannot retry, clean or remove them. */
  readOnly: z.boolean(),
  /** Seconds the ticket stays good. */
  expiresInSeconds: z.number().int(),
});
export type QueueBoardTicket = z.infer<typeof queueBoardTicket>;
