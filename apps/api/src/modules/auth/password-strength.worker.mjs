// The password strength estimate (zxcvbn-ts) in a worker thread. One estimate costs 10 to 400 ms of CPU (more
// for long passwords with many look-alike characters), and loading the dictionaries ~0.4 s once: on the API's
// event loop that would stall every other request while a password is being set. Plain JavaScript so that it
// runs the same under tsx, vitest and node.
import { parentPort } from "node:worker_threads";
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";
import * as en from "@zxcvbn-ts/language-en";

const zxcvbn = new ZxcvbnFactory({
  dictionary: { ...common.dictionary, ...en.dictionary },
  graphs: common.adjacencyGraphs,
  // The first 64 characters decide: a password whose first 64 are guessable is refused, and the time of one
  // estimate stays bounded (128 characters took 1.5 s). Fewer look-alike substitutions tried per word
  // (default 100) keeps long passwords cheap and still finds every variant of the common ones we tried.
  maxLength: 64,
  l33tMaxSubstitutions: 20,
});

parentPort.on("message", (req) => {
  try {
    const result = zxcvbn.check(req.password, req.userInputs);
    // Built on a popular password (as typed, reversed or with look-alike characters): worth saying so.
    const common = result.sequence.some((m) => m.pattern === "dictionary" && m.dictionaryName === "passwords-common");
    parentPort.postMessage({ id: req.id, score: result.score, common });
  } catch (err) {
    parentPort.postMessage({ id: req.id, error: err instanceof Error ? err.message : String(err) });
  }
});
