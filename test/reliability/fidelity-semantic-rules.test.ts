/**
 * The semantic layer (docs/validation.md): rules JSON Schema cannot state run after schema
 * validation in both postures, at every entry point and in the gateway. The sites come from the
 * schema annotations, so this suite walks the generated table rather than a hand-kept list: a
 * rule added to the schema is tested here without a new test.
 */
import { describe, expect, it } from "vitest";
import { RULE_SITES, type RuleSite } from "../../generated/semantic-rules.js";
import { validateEvent, validateInput, validateMessage, validateReduceResult } from "../../src/validate/index.js";
import { SEMANTIC_EVENT_TYPES, semanticIssues, type SemanticRoot } from "../../src/validate/semantic.js";
import { SPEC_VERSION } from "../../src/validate/version.js";
import { throughGateway, turnStart } from "./fidelity-support.js";

const POSTURES = ["strict", "lenient"] as const;
const ROOTS: readonly SemanticRoot[] = ["AgEvent", "AgInput", "AgMessage", "AgBlock", "AgReduceResult"];
function asRoot(name: string): SemanticRoot {
  const root = ROOTS.find((r) => r === name);
  if (root === undefined) throw new Error(`generated/semantic-rules.ts names a root the layer does not know: ${name}`);
  return root;
}

const subagentStart = (turnId: string, parentTurnId: string) => ({ type: "subagent.start", seq: 1, turnId, parentTurnId });
const turnRecord = (turnId: string, parentTurnId?: string) => ({
  turnId,
  threadId: "th",
  ...(parentTurnId === undefined ? {} : { parentTurnId }),
});
const envelope = (kind: string, extra: Record<string, unknown>) => ({
  protocol: "agjson",
  version: SPEC_VERSION,
  threadId: "th",
  turnId: "t2",
  kind,
  ...extra,
});

describe("a turn never names itself as its parent (§0.5)", () => {
  const selfParent: [
    string,
    (p: (typeof POSTURES)[number]) => { ok: boolean; errors?: { path: string; keyword: string; spec: string }[] },
    string,
  ][] = [
    ["subagent.start", (posture) => validateEvent(subagentStart("t2", "t2"), { posture }), "/parentTurnId"],
    [
      "subagent.done",
      (posture) => validateEvent({ type: "subagent.done", seq: 2, turnId: "t2", parentTurnId: "t2" }, { posture }),
      "/parentTurnId",
    ],
    [
      "messages.snapshot turns[]",
      (posture) =>
        validateEvent({ type: "messages.snapshot", seq: 0, messages: [], turns: [turnRecord("t1"), turnRecord("t2", "t2")] }, { posture }),
      "/turns/1/parentTurnId",
    ],
    ["AgInput start", (posture) => validateInput(envelope("start", { parentTurnId: "t2", messages: [] }), { posture }), "/parentTurnId"],
    ["AgInput resume", (posture) => validateInput(envelope("resume", { parentTurnId: "t2", answers: [] }), { posture }), "/parentTurnId"],
    [
      "AgInput tool-result",
      (posture) => validateInput(envelope("tool-result", { parentTurnId: "t2", results: [] }), { posture }),
      "/parentTurnId",
    ],
    [
      "AgReduceResult turns[]",
      (posture) => validateReduceResult({ messages: [], artifacts: [], memory: [], turns: [turnRecord("t2", "t2")] }, { posture }),
      "/turns/0/parentTurnId",
    ],
  ];
  for (const [where, run, path] of selfParent) {
    for (const posture of POSTURES) {
      it(`${where}: refused under ${posture}, naming the field and §0.5`, () => {
        const r = run(posture);
        expect(r.ok).toBe(false);
        expect(r.errors?.[0]).toMatchObject({ path, keyword: "turn-not-own-parent", spec: "§0.5" });
      });
    }
  }

  it("a distinct parent is accepted everywhere", () => {
    for (const posture of POSTURES) {
      expect(validateEvent(subagentStart("t2", "t1"), { posture }).ok).toBe(true);
      expect(validateInput(envelope("start", { parentTurnId: "t1", messages: [] }), { posture }).ok).toBe(true);
      expect(validateReduceResult({ messages: [], artifacts: [], memory: [], turns: [turnRecord("t2", "t1")] }, { posture }).ok).toBe(true);
    }
  });

  it("every rule site of the generated table is exercised by a document that breaks it (class coverage)", () => {
    const violate = (site: RuleSite): unknown => {
      // Builds the smallest document reaching the site, then breaks the rule there.
      const leaf: unknown =
        site.rule.kind === "distinct"
          ? { ...(site.def === "AgTurnRecord" ? turnRecord("x") : {}), [site.rule.fields[0]]: "x", [site.rule.fields[1]]: "x" }
          : [
              { type: "tool-call", toolCallId: "x", name: "f", input: {} },
              { type: "tool-call", toolCallId: "x", name: "f", input: {} },
            ];
      let node: unknown = leaf;
      for (let i = site.path.length - 1; i >= 0; i--) {
        const step = site.path[i]!;
        if ("each" in step) node = [node];
        else if ("key" in step) node = { [step.key]: node };
        else node = Object.assign({}, node, { [step.tag]: step.value });
      }
      return node;
    };
    let checked = 0;
    for (const [root, sites] of Object.entries(RULE_SITES)) {
      for (const site of sites) {
        const doc = violate(site);
        const issues = semanticIssues(asRoot(root), doc);
        expect(
          issues.map((i) => i.keyword),
          `${root} ${JSON.stringify(site.path)}`,
        ).toContain(site.rule.rule);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it("the gateway refuses a self-parented subagent.start in both postures, and its fast path never judges a rule-bearing type", async () => {
    expect([...SEMANTIC_EVENT_TYPES].sort()).toEqual(["messages.snapshot", "subagent.done", "subagent.start"]);
    for (const posture of POSTURES) {
      const out = await throughGateway(
        [
          JSON.stringify(turnStart(0)),
          JSON.stringify(subagentStart("t2", "t2")),
          JSON.stringify({ type: "turn.done", seq: 2, turnId: "t1", outcome: { type: "success" }, finishReason: "stop" }),
        ],
        { posture },
      );
      expect(out.map((e) => e.type)).toEqual(["turn.start", "error", "turn.done"]);
      expect(JSON.stringify(out[1])).toContain("turn-not-own-parent");
    }
  });

  it("validateMessage runs the layer (a message is a root with its own rule)", () => {
    expect(RULE_SITES.AgMessage?.length).toBeGreaterThan(0);
    expect(validateMessage({ id: "m", role: "assistant", content: [] }, { posture: "strict" }).ok).toBe(true);
  });
});
