/**
 * `"format": "date-time"` (RFC 3339 §5.6) as the generated validators check it. The generator
 * writes this source into each validator module (`emit-validators.ts`), so the modules stay
 * standalone and a bundle that never reaches a timestamp drops it. It is kept as source text, not
 * as a function whose `toString()` is copied: the package build minifies codegen/, which would
 * make the generated modules depend on how the generator was built.
 *
 * It gives ajv-formats' full-mode `date-time` verdict on every string — the format the canonical
 * 2020-12 reference (`canonical-ajv.ts`) checks, against which the validators are differentially
 * tested, so no document's verdict changed when it replaced that module
 * (`date-time-format.test.ts` compares the two). What ajv-formats brought with it was the reason:
 * its format table (URI, e-mail, IPv6 patterns and more) is built by a top-level call, which no
 * bundler can drop, and it was 2.4 KB of the lenient browser bundle for a format no event uses.
 *
 * The rules: a full-date (month 01–12, a day the month has, 29 February in a leap year only), one
 * separator (`T`, `t` or a whitespace character), a partial-time with optional fraction, and an
 * offset that must be there (`Z`, `z`, `±hh`, `±hhmm` or `±hh:mm`, hours ≤ 23 and minutes ≤ 59).
 * Second 60 is a leap second, accepted only at 23:59 UTC once the offset is applied.
 */
export const DATE_TIME_SOURCE = `function isDateTime(value) {
  const m = /^(\\d\\d\\d\\d)-(\\d\\d)-(\\d\\d)[Tt\\s](\\d\\d):(\\d\\d):(\\d\\d(?:\\.\\d+)?)(?:[Zz]|([+-])(\\d\\d)(?::?(\\d\\d))?)$/.exec(value);
  if (m === null) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const monthDays = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  if (month < 1 || month > 12 || day < 1 || day > monthDays) return false;
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  const sign = m[7] === "-" ? -1 : 1;
  const offsetHour = Number(m[8] ?? 0);
  const offsetMinute = Number(m[9] ?? 0);
  if (offsetHour > 23 || offsetMinute > 59) return false;
  if (hour <= 23 && minute <= 59 && second < 60) return true;
  // A leap second: the time, brought back to UTC, is 23:59 (or the minute before midnight seen
  // from the day before, -1), and the second is below 61.
  const utcMinute = minute - offsetMinute * sign;
  const utcHour = hour - offsetHour * sign - (utcMinute < 0 ? 1 : 0);
  return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second < 61;
}`;

/** The same function, compiled here (the generator's tests compare it with ajv-formats). */
export const isDateTime = new Function(`return ${DATE_TIME_SOURCE}`)() as (value: string) => boolean;
