// Phone number normalisation speed: packages/numbers (compiled metadata) against libphonenumber-js itself,
// on the same generated input (valid and invalid numbers of six countries). Bounded: N numbers, one pass each.
// Run: npm run bench:numbers [-- N]
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { normalizeNumber } from "../packages/numbers/src";

const N = Number(process.argv[2] ?? 1_000_000);
const prefixes = ["+86138", "+1415", "+4474", "+91987", "+55119", "+62812"];
const input: string[] = [];
for (let i = 0; i < N; i++) input.push(prefixes[i % prefixes.length] + String(1_000_000 + ((i * 7919) % 8_999_999)));

function run(name: string, count: number, fn: (s: string) => boolean) {
  fn(input[0]!); // load and compile before timing
  const t0 = performance.now();
  let valid = 0;
  for (let i = 0; i < count; i++) if (fn(input[i]!)) valid++;
  const s = (performance.now() - t0) / 1000;
  console.log(
    `${name.padEnd(28)} ${count.toLocaleString("en")} numbers in ${s.toFixed(2)} s = ${Math.round(count / s).toLocaleString("en")} numbers/s (${valid.toLocaleString("en")} valid)`,
  );
}

run("packages/numbers", N, (s) => normalizeNumber(s).ok);
// libphonenumber-js is ~15x slower: a tenth of the input keeps the run short.
run("libphonenumber-js (max)", Math.min(N, 100_000), (s) => parsePhoneNumberFromString(s)?.isValid() ?? false);
console.log(`peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`);
