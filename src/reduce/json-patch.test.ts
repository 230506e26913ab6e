import { describe, expect, it } from "vitest";
import { applyJsonPatch, parseJsonPointer } from "./json-patch.js";

function patched(doc: unknown, patch: unknown): unknown {
  const result = applyJsonPatch(doc, patch);
  if (!result.ok) throw new Error(result.message);
  return result.doc;
}

function failure(doc: unknown, patch: unknown): string {
  const result = applyJsonPatch(doc, patch);
  if (result.ok) throw new Error("expected the patch to fail");
  return result.message;
}

describe("RFC 6901 JSON Pointer", () => {
  it("decodes ~1 before ~0 and rejects malformed pointers", () => {
    expect(parseJsonPointer("")).toEqual([]);
    expect(parseJsonPointer("/")).toEqual([""]);
    expect(parseJsonPointer("/a~1b/m~0n/~01")).toEqual(["a/b", "m~n", "~1"]);
    expect(parseJsonPointer("a")).toBeUndefined();
    expect(parseJsonPointer("/a~2")).toBeUndefined();
    expect(parseJsonPointer("/a~")).toBeUndefined();
  });
});

describe("RFC 6902 Appendix A", () => {
  it("A.1 adds an object member", () => {
    expect(patched({ foo: "bar" }, [{ op: "add", path: "/baz", value: "qux" }])).toEqual({ foo: "bar", baz: "qux" });
  });
  it("A.2 adds an array element", () => {
    expect(patched({ foo: ["bar", "baz"] }, [{ op: "add", path: "/foo/1", value: "qux" }])).toEqual({
      foo: ["bar", "qux", "baz"],
    });
  });
  it("A.3 removes an object member", () => {
    expect(patched({ baz: "qux", foo: "bar" }, [{ op: "remove", path: "/baz" }])).toEqual({ foo: "bar" });
  });
  it("A.4 removes an array element", () => {
    expect(patched({ foo: ["bar", "qux", "baz"] }, [{ op: "remove", path: "/foo/1" }])).toEqual({ foo: ["bar", "baz"] });
  });
  it("A.5 replaces a value", () => {
    expect(patched({ baz: "qux", foo: "bar" }, [{ op: "replace", path: "/baz", value: "boo" }])).toEqual({
      baz: "boo",
      foo: "bar",
    });
  });
  it("A.6 moves a value", () => {
    const doc = { foo: { bar: "baz", waldo: "fred" }, qux: { corge: "grault" } };
    expect(patched(doc, [{ op: "move", from: "/foo/waldo", path: "/qux/thud" }])).toEqual({
      foo: { bar: "baz" },
      qux: { corge: "grault", thud: "fred" },
    });
  });
  it("A.7 moves an array element", () => {
    expect(patched({ foo: ["all", "grass", "cows", "eat"] }, [{ op: "move", from: "/foo/1", path: "/foo/3" }])).toEqual({
      foo: ["all", "cows", "eat", "grass"],
    });
  });
  it("A.8 tests a value (success)", () => {
    const doc = { baz: "qux", foo: ["a", 2, "c"] };
    expect(
      patched(doc, [
        { op: "test", path: "/baz", value: "qux" },
        { op: "test", path: "/foo/1", value: 2 },
      ]),
    ).toEqual(doc);
  });
  it("A.9 tests a value (error)", () => {
    expect(failure({ baz: "qux" }, [{ op: "test", path: "/baz", value: "bar" }])).toMatch(/test failed/);
  });
  it("A.10 adds a nested member object", () => {
    expect(patched({ foo: "bar" }, [{ op: "add", path: "/child", value: { grandchild: {} } }])).toEqual({
      foo: "bar",
      child: { grandchild: {} },
    });
  });
  it("A.11 ignores unrecognized members of an operation", () => {
    expect(patched({ foo: "bar" }, [{ op: "add", path: "/baz", value: "qux", xyz: 123 }])).toEqual({
      foo: "bar",
      baz: "qux",
    });
  });
  it("A.12 fails to add to a nonexistent target", () => {
    expect(failure({ foo: "bar" }, [{ op: "add", path: "/baz/bat", value: "qux" }])).toMatch(/parent/);
  });
  it("A.14 handles ~ escapes", () => {
    expect(patched({ "/": 9, "~1": 10 }, [{ op: "test", path: "/~01", value: 10 }])).toEqual({ "/": 9, "~1": 10 });
  });
  it("A.15 compares strings and numbers strictly", () => {
    expect(failure({ "/": 9, "~1": 10 }, [{ op: "test", path: "/~01", value: "10" }])).toMatch(/test failed/);
  });
  it("A.16 appends with the - index", () => {
    expect(patched({ foo: ["bar"] }, [{ op: "add", path: "/foo/-", value: ["abc", "def"] }])).toEqual({
      foo: ["bar", ["abc", "def"]],
    });
  });
});

describe("edge cases", () => {
  it("replaces and adds at the root", () => {
    expect(patched({ a: 1 }, [{ op: "replace", path: "", value: [1] }])).toEqual([1]);
    expect(patched({ a: 1 }, [{ op: "add", path: "", value: 3 }])).toBe(3);
  });
  it("rejects leading zeros, out-of-range indexes and - outside add", () => {
    expect(failure({ a: [1, 2] }, [{ op: "add", path: "/a/01", value: 0 }])).toMatch(/out of bounds/);
    expect(failure({ a: [1, 2] }, [{ op: "add", path: "/a/3", value: 0 }])).toMatch(/out of bounds/);
    expect(patched({ a: [1, 2] }, [{ op: "add", path: "/a/2", value: 0 }])).toEqual({ a: [1, 2, 0] });
    expect(failure({ a: [1, 2] }, [{ op: "remove", path: "/a/-" }])).toMatch(/does not exist/);
    expect(failure({ a: [1, 2] }, [{ op: "replace", path: "/a/2", value: 0 }])).toMatch(/does not exist/);
  });
  it("rejects a move into its own child, allows a move onto itself", () => {
    expect(failure({ a: { b: 1 } }, [{ op: "move", from: "/a", path: "/a/b" }])).toMatch(/proper prefix/);
    expect(patched({ a: { b: 1 } }, [{ op: "move", from: "/a", path: "/a" }])).toEqual({ a: { b: 1 } });
  });
  it("copies deeply so the two locations never share a node", () => {
    const result = patched({ a: { x: [1] } }, [
      { op: "copy", from: "/a", path: "/b" },
      { op: "add", path: "/b/x/-", value: 2 },
    ]);
    expect(result).toEqual({ a: { x: [1] }, b: { x: [1, 2] } });
  });
  it("rejects malformed operations with a message naming the operation", () => {
    expect(failure({}, { op: "add" })).toMatch(/array/);
    expect(failure({}, [{ op: "add", path: "/a" }])).toMatch(/operation 0 .*no "value"/);
    expect(failure({}, [{ op: "frobnicate", path: "/a" }])).toMatch(/unknown "op"/);
    expect(failure({}, [{ op: "add", path: "a", value: 1 }])).toMatch(/JSON Pointer/);
    expect(failure({}, [{ op: "remove", path: "" }])).toMatch(/root/);
  });
  it("writes __proto__ as an own key, never the prototype", () => {
    const result = patched({}, [{ op: "add", path: "/__proto__", value: { polluted: true } }]);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result as object)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("atomicity and copy-on-write", () => {
  it("never mutates a node it does not own", () => {
    const doc = { a: { b: [1, 2] }, c: { d: 1 } };
    const frozen = JSON.stringify(doc);
    const result = patched(doc, [
      { op: "add", path: "/a/b/-", value: 3 },
      { op: "remove", path: "/c/d" },
    ]);
    expect(JSON.stringify(doc)).toBe(frozen);
    expect(result).toEqual({ a: { b: [1, 2, 3] }, c: {} });
    expect((result as { c: unknown }).c).not.toBe(doc.c);
  });
  it("mutates owned nodes in place and leaves them untouched when a later operation fails", () => {
    const owned = new WeakSet<object>();
    const first = applyJsonPatch({ list: [1] }, [{ op: "add", path: "/list/-", value: 2 }], { owned });
    if (!first.ok) throw new Error(first.message);
    const doc = first.doc as { list: number[] };
    const list = doc.list;
    const second = applyJsonPatch(doc, [{ op: "add", path: "/list/-", value: 3 }], { owned });
    expect(second.ok && second.doc).toBe(doc);
    expect(doc.list).toBe(list);
    expect(list).toEqual([1, 2, 3]);
    const failed = applyJsonPatch(
      doc,
      [
        { op: "add", path: "/list/0", value: 0 },
        { op: "replace", path: "", value: null },
        { op: "remove", path: "/nope" },
      ],
      { owned },
    );
    expect(failed.ok).toBe(false);
    expect(doc).toEqual({ list: [1, 2, 3] });
  });
});
