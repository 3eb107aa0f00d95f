// The worker thread of file-summary.ts: reads stored batch files and sorts their numbers, one at a time, off the
// API's event loop, and posts back the counts (or the refusal's status, key and params, rebuilt as the same
// AppError by the caller).
import { parentPort } from "node:worker_threads";
import { readNumberFile } from "@switchboard/domain/batches/number-file";
import { NumberSorter } from "@switchboard/domain/batches/number-sorter";
import { tallyOf } from "@switchboard/domain/batches/number-tally";
import { RowFilling } from "@switchboard/domain/batches/personalise";
import { AppError } from "../../lib/errors";
import type { SummaryReply, SummaryRequest } from "./file-summary";

async function summarise(request: SummaryRequest): Promise<SummaryReply> {
  const p = request.personalised;
  const sorted = new NumberSorter(request.reading, false, p ? new RowFilling(p.content, p.variables) : null);
  let columns: string[] = [];
  try {
    await readNumberFile(request.absPath, (raw, values) => sorted.add(raw, values), request.maxNumbers, {
      variables: p?.variables ?? [],
      columns: (names) => {
        columns = names;
      },
    });
  } catch (err) {
    if (err instanceof AppError) return { ok: false, status: err.status, key: err.key, params: err.params };
    return { ok: false, failure: err instanceof Error ? err.message : String(err) };
  }
  const open = request.openWindows && new Map(request.openWindows.map(([phone, on]) => [phone, new Set(on)]));
  return { ok: true, tally: tallyOf(sorted, open, request.optedOut && new Set(request.optedOut), columns) };
}

const port = parentPort!;
port.on("message", (request: SummaryRequest) => {
  // summarise answers every error of the reading; anything else (posting the answer failed) is left unhandled on
  // purpose: it ends the thread, the caller sees its "error" event and the pool starts a fresh one.
  void summarise(request).then((reply) => port.postMessage(reply));
});
