/**
 * @module tests/integration/property/webhook-signatures — each webhook receiver (read from the route table),
 * signed under its neutral header and under the provider's own (GitHub's, Sentry's), against random
 * variants of a valid signed delivery: signature or secret missing, empty, under a header it does
 * not read, beside a different signature under its other name, under another scheme, truncated or extended, in the wrong case where case matters, with garbage around
 * it, duplicated beside a good one, made with another secret or over another body, or the body
 * changed by one byte or one space after signing. Every variant is a 401 with the envelope and
 * stores nothing; the valid delivery is accepted. Then: correctly signed deliveries that are not
 * UTF-8 or are nested too deep are a 400 and store nothing.
 */
import { createHmac, randomUUID } from "node:crypto";
import fc from "fast-check";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_JSON_DEPTH } from "../../../core/src/http/body.js";
import { allRoutes, type WebhookProvider } from "../../../core/src/routes.js";
import { PROVIDER_HEADERS } from "../../../core/src/webhooks/headers.js";
import { WEBHOOK_FAILURE_MESSAGE } from "../../../core/src/webhooks/routes.js";
import { signCodehost, signErrortracker } from "../../../core/src/webhooks/verify.js";
import { AUTH, type TestApp, testApp } from "../../helpers/app.js";
import { TEST_WEBHOOK_SECRETS } from "../../helpers/db.js";
import { loadFixture } from "../../helpers/fixtures.js";
import { bytesBetween, expectEnvelope } from "../../helpers/property.js";

// Two tests at a time (each describe takes its own in turn): the idle core gets work, none is stretched far.
vi.setConfig({ maxConcurrency: 2 });

const RUNS = 80;
const POSITIVE_RUNS = 10;
const REFUSED = { error: WEBHOOK_FAILURE_MESSAGE };
const encoder = new TextEncoder();

/** A delivery as sent: headers in order (a name may repeat), body as bytes. */
interface Delivery {
  path: string;
  headers: [string, string][];
  body: Uint8Array;
  /** What was done to it, for a failing run's report. */
  what: string;
}

/** Each receiver's signature header and how a sender signs. */
const SCHEMES: Record<
  WebhookProvider,
  { header: string; sign: (body: Uint8Array, secret: string) => string; extra: () => [string, string][] }
> = {
  codehost: {
    header: "X-Codehost-Signature-256",
    sign: (body, secret) => signCodehost(body, secret),
    extra: () => [
      ["X-Codehost-Event", "issues"],
      ["X-Codehost-Delivery", randomUUID()],
    ],
  },
  errortracker: {
    header: "X-Errortracker-Hook-Signature",
    // The error tracker signs its own compact serialisation of the payload.
    sign: (body, secret) => signErrortracker(JSON.stringify(JSON.parse(new TextDecoder().decode(body))), secret),
    extra: () => [
      ["X-Errortracker-Hook-Resource", "issue"],
      ["Request-ID", randomUUID()],
    ],
  },
  analytics: {
    header: "X-Analytics-Secret",
    sign: (_body, secret) => secret,
    extra: () => [["X-Analytics-Delivery", randomUUID()]],
  },
};

const receivers = allRoutes().flatMap((route) =>
  route.auth === "webhook" && route.provider ? [{ provider: route.provider, path: route.path }] : [],
);

/** The provider's own name for the receiver's signature header, where it has one (GitHub's, Sentry's). */
const ownSignatureHeader = (provider: WebhookProvider): string | undefined =>
  PROVIDER_HEADERS[provider].aliases[SCHEMES[provider].header];

/** Each receiver once per header its signature may come in: the neutral one, and the provider's own. */
const signatureHeaders = receivers.flatMap(({ provider, path }) => {
  const own = ownSignatureHeader(provider);
  return [SCHEMES[provider].header, ...(own ? [own] : [])].map((header) => ({ provider, path, header }));
});

/** A payload each provider's rules accept, made different per run by its title or event name. */
function payloadFor(provider: WebhookProvider, word: string, extra: Record<string, unknown>): unknown {
  switch (provider) {
    case "codehost":
      return {
        action: "opened",
        issue: { number: 7, title: `Hostile ${word}`, state: "open" },
        repository: { full_name: "octo-org/shop" },
        ...extra,
      };
    case "errortracker": {
      const base = loadFixture("errortracker/issue.created.json") as { data: { issue: Record<string, unknown> } };
      return { ...base, data: { ...base.data, issue: { ...base.data.issue, title: `Hostile ${word}` } }, ...extra };
    }
    case "analytics":
      return { event: { uuid: randomUUID(), event: `probe_${word.length}`, properties: { word, ...extra } } };
  }
}

/** A valid delivery of `payload`, written compactly or indented (`indent`), its signature under `header`. */
function signedDelivery(
  provider: WebhookProvider,
  path: string,
  payload: unknown,
  indent: number,
  header = SCHEMES[provider].header,
): Delivery {
  const scheme = SCHEMES[provider];
  const body = encoder.encode(JSON.stringify(payload, null, indent));
  return {
    path,
    headers: [
      ["Content-Type", "application/json"],
      ...scheme.extra(),
      [header, scheme.sign(body, TEST_WEBHOOK_SECRETS[provider])],
    ],
    body,
    what: "valid",
  };
}

const word = fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 });
const extraFields = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), {
  maxKeys: 3,
});
const hex = fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 1, maxLength: 8 });

/** The delivery with its signature header's values replaced (none: the header is gone). */
function withSignature(delivery: Delivery, header: string, values: string[], what: string): Delivery {
  const others = delivery.headers.filter(([name]) => name.toLowerCase() !== header.toLowerCase());
  return { ...delivery, headers: [...others, ...values.map((value): [string, string] => [header, value])], what };
}

/** The value the delivery's signature header carries. */
function signatureOf(delivery: Delivery, header: string): string {
  return delivery.headers.find(([name]) => name === header)?.[1] ?? "";
}

/**
 * Changes to a valid delivery that must each be refused. `fc.pre` drops the rare change that is no
 * change to what the provider signs (a byte flip the error tracker's re-serialisation undoes).
 */
function misSigned(provider: WebhookProvider, path: string, header: string): fc.Arbitrary<Delivery> {
  const scheme = SCHEMES[provider];
  const secret = TEST_WEBHOOK_SECRETS[provider];
  // The receiver's other name for its signature header, if any: a second, different signature there is refused too.
  const otherName = header === scheme.header ? ownSignatureHeader(provider) : scheme.header;
  const readNames = new Set([scheme.header, ownSignatureHeader(provider)].map((name) => name?.toLowerCase()));
  const base = fc
    .tuple(word, extraFields, fc.constantFrom(0, 0, 2))
    .map(([text, extra, indent]) => signedDelivery(provider, path, payloadFor(provider, text, extra), indent, header));
  type Change = (delivery: Delivery) => fc.Arbitrary<Delivery>;
  const fixed =
    (make: (delivery: Delivery) => Delivery): Change =>
    (delivery) =>
      fc.constant(make(delivery));
  const headerChanges: Change[] = [
    fixed((d) => withSignature(d, header, [], "header missing")),
    fixed((d) => withSignature(d, header, [""], "header empty")),
    (d) =>
      fc
        .constantFrom("x", "\u00e9", "<", '"', ";", ",", "=", "0", "a", "Z")
        .chain((junk) =>
          fc.constantFrom(
            withSignature(d, header, [`${junk}${signatureOf(d, header)}`], `garbage ${junk} before`),
            withSignature(d, header, [`${signatureOf(d, header)}${junk}`], `garbage ${junk} after`),
            withSignature(d, header, [`${junk}${signatureOf(d, header)}${junk}`], `garbage ${junk} around`),
          ),
        ),
    (d) =>
      fc.integer({ min: 1, max: Math.max(1, signatureOf(d, header).length - 1) }).map((cut) => {
        const good = signatureOf(d, header);
        return withSignature(d, header, [good.slice(0, good.length - cut)], `truncated by ${cut}`);
      }),
    (d) => hex.map((more) => withSignature(d, header, [`${signatureOf(d, header)}${more}`], `extended by ${more}`)),
    (d) =>
      fc.constantFrom<[string, string]>(["bad", "good"], ["good", "bad"], ["good", "good"]).map(([first, second]) => {
        const good = signatureOf(d, header);
        const value = (which: string) => (which === "good" ? good : `${good.slice(0, -1)}x`);
        return withSignature(d, header, [value(first), value(second)], `duplicated header: ${first}, ${second}`);
      }),
    (d) =>
      fc
        .string({ minLength: 1, maxLength: 30 })
        .filter((other) => other !== secret)
        .map((other) => withSignature(d, header, [scheme.sign(d.body, other)], `signed with secret ${other}`)),
    (d) =>
      fc
        .constantFrom(
          ...["X-Hub-Signature-256", "Sentry-Hook-Signature", "X-Hub-Signature", "X-Signature", "Authorization"].filter(
            (name) => !readNames.has(name.toLowerCase()),
          ),
        )
        .map((name) => {
          const unsigned = withSignature(d, header, [], `signature under ${name}`);
          return { ...unsigned, headers: [...unsigned.headers, [name, signatureOf(d, header)] as [string, string]] };
        }),
    ...(otherName === undefined
      ? []
      : [
          (d: Delivery) =>
            fc
              .string({ minLength: 1, maxLength: 30 })
              .filter((other) => other !== secret)
              .map((other) => ({
                ...d,
                headers: [...d.headers, [otherName, scheme.sign(d.body, other)] as [string, string]],
                what: `a second, different signature under ${otherName}`,
              })),
        ]),
  ];
  const providerChanges: Record<WebhookProvider, Change[]> = {
    codehost: [
      (d) =>
        fc
          .constantFrom("sha1=", "sha512=", "sha256:", "sha256 =", "sha256", "hmac-sha256=", "sha256=sha256=", "")
          .map((prefix) =>
            withSignature(d, header, [`${prefix}${signatureOf(d, header).slice(7)}`], `prefix ${prefix}`),
          ),
      ...bodyChanges(),
    ],
    errortracker: [
      (d) =>
        fc
          .constantFrom<[string, (good: string) => string]>(
            ["upper-case hex", (good) => good.toUpperCase()],
            ["a sha256= prefix", (good) => `sha256=${good}`],
            ["the code host's scheme", () => signCodehost(d.body, secret)],
          )
          .map(([what, change]) => withSignature(d, header, [change(signatureOf(d, header))], what)),
      ...bodyChanges(),
    ],
    analytics: [
      (d) =>
        fc
          .constantFrom<[string, string]>(
            ["upper case", secret.toUpperCase()],
            ["Bearer prefix", `Bearer ${secret}`],
            ["the code host's scheme", signCodehost(d.body, secret)],
          )
          .map(([what, value]) => withSignature(d, header, [value], what)),
    ],
  };
  const changes = [...headerChanges, ...providerChanges[provider]];
  return base.chain((delivery) => fc.constantFrom(...changes).chain((change) => change(delivery)));
}

/**
 * Changes to the body after signing (where the signature covers it): one byte flipped, a space
 * added (raw bytes matter to the code host; the error tracker's canonical form drops it, so there
 * the space goes inside a string), another payload under the first one's signature.
 */
function bodyChanges(): ((delivery: Delivery) => fc.Arbitrary<Delivery>)[] {
  return [
    (d) =>
      fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })).map(([at, mask]) => {
        const body = new Uint8Array(d.body);
        const index = at % body.length;
        body[index] = (body[index] ?? 0) ^ mask;
        return { ...d, body, what: `byte ${index} xor ${mask}` };
      }),
    (d) =>
      fc.nat().map((at) => {
        const text = new TextDecoder().decode(d.body);
        const quotes = [...text.matchAll(/"/g)].map((match) => match.index);
        const index = quotes[at % quotes.length] ?? 0;
        const changed = `${text.slice(0, index + 1)} ${text.slice(index + 1)}`;
        return { ...d, body: encoder.encode(changed), what: `a space inside the string at ${index}` };
      }),
    (d) =>
      fc.constantFrom(" ", "\n", "\t").map((space) => ({
        ...d,
        body: encoder.encode(`${new TextDecoder().decode(d.body)}${space}`),
        what: `trailing ${JSON.stringify(space)} (raw bytes)`,
      })),
    (d) =>
      word.map((other) => {
        const text = new TextDecoder().decode(d.body).replace("Hostile ", `Hostile ${other} `);
        return { ...d, body: encoder.encode(text), what: `the signature of another body (title + ${other})` };
      }),
  ];
}

/** Whether a changed delivery still says exactly what was signed (then it is not mis-signed). */
function signsTheSame(provider: WebhookProvider, delivery: Delivery): boolean {
  const { header, sign } = SCHEMES[provider];
  const names = new Set([header, ownSignatureHeader(provider)]);
  const values = delivery.headers.filter(([name]) => names.has(name)).map(([, value]) => value);
  if (values.length !== 1) return false;
  try {
    return sign(delivery.body, TEST_WEBHOOK_SECRETS[provider]) === values[0];
  } catch {
    return false; // not JSON any more: nothing the error tracker could have signed
  }
}

function toRequestInit(delivery: Delivery): RequestInit {
  const headers = new Headers();
  for (const [name, value] of delivery.headers) headers.append(name, value);
  return { method: "POST", headers, body: delivery.body };
}

/**
 * A table of the enclosing describe's own (made before its tests), so that the signals its tests
 * count are theirs alone and the describes run side by side; its tests take turns.
 */
function ownTable() {
  const table = {} as { t: TestApp };
  beforeAll(async () => {
    table.t = await testApp();
  });
  return {
    request: (path: string, init?: RequestInit) => table.t.app.request(path, init),
    /** Signals stored from `provider`, as its listing counts them. */
    async storedSignals(provider: WebhookProvider): Promise<number> {
      const response = await table.t.app.request(`/api/signals?source=${provider}&limit=1`, { headers: AUTH });
      expect(response.status).toBe(200);
      return ((await response.json()) as { total: number }).total;
    },
  };
}

describe.concurrent("webhook receivers and their signatures", () => {
  it("covers every receiver of the route table", () => {
    expect(receivers.map(({ provider }) => provider).sort()).toEqual(["analytics", "codehost", "errortracker"]);
  });

  describe.each(signatureHeaders)("$provider, signed under $header", ({ provider, path, header }) => {
    const { request, storedSignals } = ownTable();
    // Nothing else writes to the table while a property runs: the count a run leaves is the next
    // run's count before (unknown after a failed run, which then reads it again).
    let known: number | undefined;
    const countBefore = async () => {
      const count = known ?? (await storedSignals(provider));
      known = undefined;
      return count;
    };

    it.sequential("accepts the valid delivery, compact or indented, and stores its signal (positive control)", async () => {
      await fc.assert(
        fc.asyncProperty(word, extraFields, fc.constantFrom(0, 2), async (text, extra, indent) => {
          const before = await countBefore();
          const delivery = signedDelivery(provider, path, payloadFor(provider, text, extra), indent, header);
          const response = await request(path, toRequestInit(delivery));
          const label = `${provider} valid delivery`;
          expect(response.status, label).toBe(201);
          await expectEnvelope(response, label);
          const after = await storedSignals(provider);
          expect(after).toBe(before + 1);
          known = after;
        }),
        { numRuns: POSITIVE_RUNS },
      );
    });

    it.sequential("refuses every unsigned or mis-signed variant with 401 and stores nothing", async () => {
      await fc.assert(
        fc.asyncProperty(misSigned(provider, path, header), async (delivery) => {
          fc.pre(!signsTheSame(provider, delivery));
          const before = await countBefore();
          const response = await request(path, toRequestInit(delivery));
          const label = `${provider}: ${delivery.what}`;
          expect(response.status, label).toBe(401);
          expect(await expectEnvelope(response, label), label).toEqual(REFUSED);
          const after = await storedSignals(provider);
          expect(after, label).toBe(before);
          known = after;
        }),
        { numRuns: RUNS },
      );
    });
  });

  describe("correctly signed deliveries the receiver cannot take", () => {
    const { request, storedSignals } = ownTable();
    const invalid = (prefix: string) => bytesBetween(prefix, [0xc3, 0x28], '","repository":{"full_name":"o/r"}}');

    it.sequential("a body that is not UTF-8 is a 400, not stored with U+FFFD (code host JSON and form, analytics)", async () => {
      const json = invalid('{"action":"opened","issue":{"number":1,"title":"');
      const formText = `payload=${encodeURIComponent('{"action":"opened","issue":{"number":1,"title":"')}%C3%28${encodeURIComponent('"},"repository":{"full_name":"o/r"}}')}`;
      const cases: { provider: WebhookProvider; delivery: Delivery }[] = [
        {
          provider: "codehost",
          delivery: {
            path: "/api/signals/codehost",
            headers: [
              ["Content-Type", "application/json"],
              ...SCHEMES.codehost.extra(),
              ["X-Codehost-Signature-256", signCodehost(json, TEST_WEBHOOK_SECRETS.codehost)],
            ],
            body: json,
            what: "JSON with bytes C3 28",
          },
        },
        {
          provider: "codehost",
          delivery: {
            path: "/api/signals/codehost",
            headers: [
              ["Content-Type", "application/x-www-form-urlencoded"],
              ...SCHEMES.codehost.extra(),
              ["X-Codehost-Signature-256", signCodehost(formText, TEST_WEBHOOK_SECRETS.codehost)],
            ],
            body: encoder.encode(formText),
            what: "a form whose payload percent-encodes bytes C3 28",
          },
        },
        {
          provider: "analytics",
          delivery: {
            path: "/api/signals/analytics",
            headers: [
              ["Content-Type", "application/json"],
              ["X-Analytics-Secret", TEST_WEBHOOK_SECRETS.analytics],
            ],
            body: bytesBetween('{"event":"', [0xc3, 0x28], '"}'),
            what: "an event name with bytes C3 28",
          },
        },
      ];
      for (const { provider, delivery } of cases) {
        const before = await storedSignals(provider);
        const response = await request(delivery.path, toRequestInit(delivery));
        expect(response.status, delivery.what).toBe(400);
        expect(await expectEnvelope(response, delivery.what), delivery.what).toMatchObject({
          error: expect.stringMatching(/UTF-8/),
        });
        expect(await storedSignals(provider), delivery.what).toBe(before);
      }
    });

    it.sequential("an error-tracker body that is not UTF-8 verifies on its bytes only: 401 or 400, nothing stored", async () => {
      const body = bytesBetween('{"action":"created","data":{"issue":{"title":"', [0xc3, 0x28], '"}}}');
      // What a lenient sender would have signed: the text with U+FFFD in place of the bad bytes.
      const lenient = JSON.stringify(JSON.parse(new TextDecoder().decode(body)));
      const before = await storedSignals("errortracker");
      const send = (signature: string) =>
        request("/api/signals/errortracker", {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            "X-Errortracker-Hook-Resource": "issue",
            "Request-ID": randomUUID(),
            "X-Errortracker-Hook-Signature": signature,
          },
          body,
        });
      const response = await send(signErrortracker(lenient, TEST_WEBHOOK_SECRETS.errortracker));
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(REFUSED);
      const onBytes = await send(createHmac("sha256", TEST_WEBHOOK_SECRETS.errortracker).update(body).digest("hex"));
      expect(onBytes.status).toBe(400);
      expect(await onBytes.json()).toMatchObject({ error: expect.stringMatching(/UTF-8/) });
      expect(await storedSignals("errortracker")).toBe(before);
    });

    it.sequential(`a payload nested more than ${MAX_JSON_DEPTH} levels deep is a 400 on every receiver, nothing stored`, async () => {
      const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
      for (const { provider, path } of receivers) {
        const before = await storedSignals(provider);
        const base = JSON.stringify(payloadFor(provider, "deep", {}));
        const text = `${base.slice(0, -1)},"deep":${deep(MAX_JSON_DEPTH + 10)}}`;
        const delivery = signedDelivery(provider, path, null, 0);
        const body = encoder.encode(text);
        const signed = withSignature(
          { ...delivery, body },
          SCHEMES[provider].header,
          [SCHEMES[provider].sign(body, TEST_WEBHOOK_SECRETS[provider])],
          `${provider} deep`,
        );
        const response = await request(path, toRequestInit(signed));
        expect(response.status, signed.what).toBe(400);
        expect(await expectEnvelope(response, signed.what), signed.what).toMatchObject({
          error: expect.stringMatching(/nested/),
        });
        expect(await storedSignals(provider), signed.what).toBe(before);
        // Just inside the limit the same delivery is taken, and reads back.
        const within = `${base.slice(0, -1)},"deep":${deep(MAX_JSON_DEPTH - 10)}}`;
        const accepted = withSignature(
          { ...delivery, body: encoder.encode(within) },
          SCHEMES[provider].header,
          [SCHEMES[provider].sign(encoder.encode(within), TEST_WEBHOOK_SECRETS[provider])],
          `${provider} within the limit`,
        );
        const ok = await request(path, toRequestInit(accepted));
        expect(ok.status, accepted.what).toBe(201);
        const { signal } = ((await ok.json()) as { data: { signal: { id: string } } }).data;
        const read = await request(`/api/signals/${signal.id}`, { headers: AUTH });
        expect(read.status, accepted.what).toBe(200);
      }
    });
  });
});
