/**
 * Python emitter: one module, `agjson_types.py`, standard library only. Every record is a
 * dataclass with `from_dict`/`to_dict` that keeps unknown fields in `extras`; every union is a
 * `typing.Union` alias plus a `parse_<name>` function that dispatches on the tag and returns an
 * `Unknown…` holder for a tag this version does not know (the lenient posture, §0.2).
 */
import type { Field, Model, RecordModel, TypeRef, UnionModel, VariantTarget } from "./model.js";

const KEYWORDS = new Set([
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
  "extras",
  "to_dict",
  "from_dict",
]);
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `turnId` → `turn_id`, `_meta` → `meta`, `a2uiMessage` → `a2ui_message`. */
export function snake(s: string): string {
  return s
    .replace(/^_+/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .toLowerCase();
}

function ident(name: string, where: string): string {
  if (!IDENT.test(name)) throw new Error(`other-languages/python: ${where} yields ${JSON.stringify(name)}, not a Python identifier`);
  return name;
}

const q = (s: string): string => JSON.stringify(s);

/** A docstring body that cannot close the literal early. */
function docstring(lines: string[], indent: string): string {
  const text = lines.join("\n").replace(/\\/g, "\\\\").replace(/"""/g, '\\"\\"\\"');
  return `${indent}"""${text.split("\n").join(`\n${indent}`)}\n${indent}"""\n`;
}

function fieldNames(rec: RecordModel): Map<Field, string> {
  const out = new Map<Field, string>();
  const used = new Set<string>();
  for (const f of rec.fields) {
    let n = snake(f.json);
    if (KEYWORDS.has(n)) n = `${n}_`;
    if (used.has(n)) throw new Error(`other-languages/python: ${rec.name}.${f.json} and another property both map to the attribute ${n}`);
    used.add(ident(n, `${rec.name}.${f.json}`));
    out.set(f, n);
  }
  return out;
}

function annotation(t: TypeRef): string {
  switch (t.k) {
    case "any":
      return "Any";
    case "string":
      return "str";
    case "integer":
      return "int";
    case "number":
      return "float";
    case "boolean":
      return "bool";
    case "array":
      return `List[${annotation(t.items)}]`;
    case "map":
      return `Dict[str, ${annotation(t.values)}]`;
    case "record":
    case "union":
    case "alias":
      return t.name;
  }
}

/** An expression that checks and converts the JSON value `v` (a plain name) found at `where`. */
function parseExpr(t: TypeRef, v: string, where: string, depth = 0): string {
  const y = `y${depth}`;
  switch (t.k) {
    case "any":
      return v;
    case "string":
      return `_str(${v}, ${q(where)})`;
    case "integer":
      return `_int(${v}, ${q(where)})`;
    case "number":
      return `_num(${v}, ${q(where)})`;
    case "boolean":
      return `_bool(${v}, ${q(where)})`;
    case "array":
      return `[${parseExpr(t.items, y, `${where}[]`, depth + 1)} for ${y} in _list(${v}, ${q(where)})]`;
    case "map":
      return `{k${depth}: ${parseExpr(t.values, y, `${where}{}`, depth + 1)} for k${depth}, ${y} in _object(${v}, ${q(where)}).items()}`;
    case "record":
      return `${t.name}.from_dict(${v})`;
    case "union":
      return `${parseFn(t.name)}(${v})`;
    case "alias":
      return parseExpr(t.target, v, where, depth);
  }
}

/** An expression that turns the Python value `v` back into plain JSON data. */
function dumpExpr(t: TypeRef, v: string, depth = 0): string {
  const y = `y${depth}`;
  switch (t.k) {
    case "any":
    case "string":
    case "integer":
    case "number":
    case "boolean":
      return v;
    case "array": {
      const inner = dumpExpr(t.items, y, depth + 1);
      return inner === y ? `list(${v})` : `[${inner} for ${y} in ${v}]`;
    }
    case "map": {
      const inner = dumpExpr(t.values, y, depth + 1);
      return inner === y ? `dict(${v})` : `{k${depth}: ${inner} for k${depth}, ${y} in ${v}.items()}`;
    }
    case "record":
    case "union":
      return `${v}.to_dict()`;
    case "alias":
      return dumpExpr(t.target, v, depth);
  }
}

export function parseFn(union: string): string {
  return `parse_${snake(union)}`;
}

/** An opaque JSON value (§0.1), where `None` is a value (JSON null) rather than absence. */
function isOpaque(t: TypeRef): boolean {
  return t.k === "any" || (t.k === "alias" && isOpaque(t.target));
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

function renderRecord(rec: RecordModel, source: (def: string) => string, unionsOf: string[]): string {
  const names = fieldNames(rec);
  const doc = [...(rec.description ? [oneLine(rec.description)] : []), "", `@generated from ${source(rec.def)}#/$defs/${rec.from}`];
  if (unionsOf.length) doc.push(`Variant of: ${unionsOf.join(", ")}.`);
  let out = `@dataclass\nclass ${rec.name}:\n${docstring(doc, "    ")}\n`;
  out += `    _KEYS = frozenset([${rec.fields.map((f) => q(f.json)).join(", ")}])\n\n`;
  // Dataclass order: fields without a default first, then the defaulted ones (tag consts, optionals).
  const required = rec.fields.filter((f) => f.required && f.constValue === undefined);
  const rest = rec.fields.filter((f) => !(f.required && f.constValue === undefined));
  const comment = (f: Field) => (f.description ? `    #: ${oneLine(f.description)}\n` : "");
  for (const f of required) out += `${comment(f)}    ${names.get(f)}: ${annotation(f.type)}\n`;
  for (const f of rest) {
    if (f.constValue !== undefined && f.required) out += `${comment(f)}    ${names.get(f)}: ${annotation(f.type)} = ${q(f.constValue)}\n`;
    // An opaque value may be JSON null, so absence needs its own marker there.
    else if (isOpaque(f.type)) out += `${comment(f)}    ${names.get(f)}: ${annotation(f.type)} = ABSENT\n`;
    else out += `${comment(f)}    ${names.get(f)}: Optional[${annotation(f.type)}] = None\n`;
  }
  out += `    #: Fields this version of the schema does not know, kept verbatim so to_dict() round-trips them (§0.2).\n`;
  out += `    extras: Dict[str, Any] = field(default_factory=dict)\n\n`;

  out += `    @classmethod\n    def from_dict(cls, obj: Any) -> "${rec.name}":\n`;
  out += `        """Reads one ${rec.name} from parsed JSON; raises AgJsonDecodeError naming the field at fault."""\n`;
  out += `        d = _object(obj, ${q(rec.name)})\n`;
  out += `        return cls(\n`;
  for (const f of rec.fields) {
    const where = `${rec.name}.${f.json}`;
    const conv = parseExpr(f.type, "x", where);
    const fn = conv === "x" ? "None" : `lambda x: ${conv}`;
    out += f.required
      ? `            ${names.get(f)}=_required(d, ${q(f.json)}, ${q(rec.name)}, ${fn}),\n`
      : `            ${names.get(f)}=_optional(d, ${q(f.json)}, ${fn}${isOpaque(f.type) ? ", ABSENT" : ""}),\n`;
  }
  out += `            extras=_extras(d, cls._KEYS),\n        )\n\n`;

  out += `    def to_dict(self) -> Dict[str, Any]:\n        """The JSON object again, unknown fields included."""\n`;
  out += `        out: Dict[str, Any] = {}\n`;
  for (const f of rec.fields) {
    const n = `self.${names.get(f)}`;
    if (f.required) out += `        out[${q(f.json)}] = ${dumpExpr(f.type, n)}\n`;
    else out += `        if ${n} is not ${isOpaque(f.type) ? "ABSENT" : "None"}:\n            out[${q(f.json)}] = ${dumpExpr(f.type, n)}\n`;
  }
  out += `        for k, v in self.extras.items():\n            out.setdefault(k, v)\n        return out\n`;
  return out;
}

function targetParse(t: VariantTarget): string {
  // A union's parse function may be defined further down; the lambda defers the lookup.
  return t.k === "record" ? `${t.name}.from_dict` : `lambda d: ${parseFn(t.name)}(d)`;
}

function variantNames(u: UnionModel): string[] {
  const seen = new Set<string>();
  for (const t of [...u.cases.map((c) => c.target), ...(u.absent ? [u.absent] : []), ...(u.pattern ? [u.pattern.target] : [])])
    seen.add(t.name);
  return [...seen, u.unknownName];
}

function renderUnknown(u: UnionModel): string {
  const doc = [
    `A ${u.name} whose \`${u.tag}\` this version does not know: kept as the raw object so it round-trips (lenient posture, §0.2).`,
  ];
  return (
    `@dataclass\nclass ${u.unknownName}:\n${docstring(doc, "    ")}\n    raw: Dict[str, Any]\n\n` +
    `    @property\n    def tag(self) -> Any:\n        """The unrecognised \`${u.tag}\` value."""\n        return self.raw.get(${q(u.tag)})\n\n` +
    `    def to_dict(self) -> Dict[str, Any]:\n        """The raw object, unchanged."""\n        return dict(self.raw)\n`
  );
}

function renderParse(u: UnionModel, source: (def: string) => string): string {
  const table = `_${snake(u.name).toUpperCase()}_CASES`;
  let out = `${table}: Dict[str, Callable[[Any], Any]] = {\n`;
  for (const c of u.cases) out += `    ${q(c.value)}: ${targetParse(c.target)},\n`;
  out += `}\n`;
  if (u.pattern) out += `_${snake(u.name).toUpperCase()}_PATTERN = re.compile(${q(u.pattern.regex)})\n`;
  out += `\n\ndef ${parseFn(u.name)}(obj: Any) -> ${u.name}:\n`;
  const doc = [
    `Reads a ${u.name}, picking the variant by \`${u.tag}\`.`,
    ...(u.description ? ["", oneLine(u.description)] : []),
    "",
    `@generated from ${source(u.def)}#/$defs/${u.def}`,
  ];
  out += docstring(doc, "    ");
  out += `    d = _object(obj, ${q(u.name)})\n`;
  if (u.absent) out += `    if ${q(u.tag)} not in d:\n        return ${targetParse(u.absent)}(d)\n`;
  out += `    tag = _tag(d, ${q(u.tag)}, ${q(u.name)})\n`;
  out += `    parse = ${table}.get(tag)\n    if parse is not None:\n        return parse(d)\n`;
  if (u.pattern) out += `    if _${snake(u.name).toUpperCase()}_PATTERN.search(tag):\n        return ${targetParse(u.pattern.target)}(d)\n`;
  out += `    return ${u.unknownName}(dict(d))\n`;
  return out;
}

const RUNTIME = `
class AgJsonDecodeError(ValueError):
    """A document that does not have the shape its type needs; the message names the field."""


def _object(x: Any, where: str) -> Dict[str, Any]:
    if not isinstance(x, dict):
        raise AgJsonDecodeError(f"{where}: expected a JSON object, got {type(x).__name__}")
    return x


def _list(x: Any, where: str) -> List[Any]:
    if not isinstance(x, list):
        raise AgJsonDecodeError(f"{where}: expected a JSON array, got {type(x).__name__}")
    return x


def _str(x: Any, where: str) -> str:
    if not isinstance(x, str):
        raise AgJsonDecodeError(f"{where}: expected a string, got {type(x).__name__}")
    return x


def _int(x: Any, where: str) -> int:
    # JSON Schema counts 1.0 as an integer; keep the number as written so it round-trips.
    if isinstance(x, bool) or not (isinstance(x, int) or (isinstance(x, float) and x.is_integer())):
        raise AgJsonDecodeError(f"{where}: expected an integer, got {x!r}")
    return x


def _num(x: Any, where: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise AgJsonDecodeError(f"{where}: expected a number, got {type(x).__name__}")
    return x


def _bool(x: Any, where: str) -> bool:
    if not isinstance(x, bool):
        raise AgJsonDecodeError(f"{where}: expected a boolean, got {type(x).__name__}")
    return x


def _required(d: Dict[str, Any], key: str, where: str, conv: Optional[Callable[[Any], Any]]) -> Any:
    if key not in d:
        raise AgJsonDecodeError(f"{where}: the required field {key!r} is missing")
    return d[key] if conv is None else conv(d[key])


class _Absent:
    """The type of ABSENT."""

    def __repr__(self) -> str:
        return "ABSENT"

    def __bool__(self) -> bool:
        return False


#: The value of an optional opaque field that is not present (JSON null there is None).
ABSENT: Any = _Absent()


def _optional(d: Dict[str, Any], key: str, conv: Optional[Callable[[Any], Any]], missing: Any = None) -> Any:
    if key not in d:
        return missing
    return d[key] if conv is None else conv(d[key])


def _extras(d: Dict[str, Any], known: FrozenSet[str]) -> Dict[str, Any]:
    return {k: v for k, v in d.items() if k not in known}


def _tag(d: Dict[str, Any], key: str, where: str) -> str:
    tag = d.get(key)
    if not isinstance(tag, str):
        raise AgJsonDecodeError(f"{where}: the discriminator {key!r} must be a string, got {tag!r}")
    return tag
`;

/** Renders `python/agjson_types.py`. */
export function renderPython(model: Model, banner: string, source: (def: string) => string, roots: Record<string, string>): string {
  let out = banner;
  out += `"""AgJSON v1 types for Python: dataclasses with from_dict/to_dict, and union dispatch by tag.\n\n`;
  out += `Standard library only. Unknown fields are kept in each record's \`extras\`; an unknown event,\n`;
  out += `block, … type parses to an \`Unknown…\` holder of the raw object. Both round-trip through\n`;
  out += `to_dict() unchanged (the consumer-lenient posture of §0.2). See docs/codegen-other-languages.md.\n"""\n`;
  out += `from __future__ import annotations\n\nimport re\nfrom dataclasses import dataclass, field\n`;
  out += `from typing import Any, Callable, Dict, FrozenSet, List, Optional, Union\n\n`;
  out += RUNTIME;

  for (const a of model.aliases) {
    out += `\n\n#: ${a.description ? oneLine(a.description) : a.name}\n#: @generated from ${source(a.def)}#/$defs/${a.def}\n`;
    out += `${a.name} = ${aliasValue(a.target)}\n`;
  }
  for (const u of model.unions) out += `\n\n${renderUnknown(u)}`;
  for (const rec of model.records) out += `\n\n${renderRecord(rec, source, model.recordUnions.get(rec.name) ?? [])}`;
  for (const u of model.unions) {
    out += `\n\n#: ${u.description ? oneLine(u.description) : u.name}\n#: @generated from ${source(u.def)}#/$defs/${u.def}\n`;
    out += `${u.name} = Union[${variantNames(u).map(q).join(", ")}]\n`;
  }
  for (const u of model.unions) out += `\n\n${renderParse(u, source)}`;

  out += `\n\n#: Every $def name → the function that reads a document of that type.\nDEF_PARSERS: Dict[str, Callable[[Any], Any]] = {\n`;
  for (const { def, type } of model.defTypes) {
    const conv = parseExpr(type, "x", def);
    out += `    ${q(def)}: ${conv === "x" ? "lambda x: x" : `lambda x: ${conv}`},\n`;
  }
  out += `}\n`;
  out += `\n\ndef parse_def(name: str, obj: Any) -> Any:\n    """Reads a document of the $def \`name\` (e.g. "AgUsage")."""\n`;
  out += `    parse = DEF_PARSERS.get(name)\n    if parse is None:\n        raise KeyError(f"agjson: no $def named {name!r}")\n    return parse(obj)\n`;
  out += `\n\ndef to_json(value: Any) -> Any:\n    """Any parsed value back to plain JSON data (records and unions via to_dict())."""\n`;
  out += `    if hasattr(value, "to_dict"):\n        return value.to_dict()\n    if isinstance(value, list):\n        return [to_json(v) for v in value]\n`;
  out += `    if isinstance(value, dict):\n        return {k: to_json(v) for k, v in value.items()}\n    return value\n`;
  for (const [fn, def] of Object.entries(roots)) {
    const t = model.defTypes.find((d) => d.def === def)!.type;
    out += `\n\ndef ${ident(fn, fn)}(obj: Any) -> ${annotation(t)}:\n    """Reads one ${def} (a document of its family's root type)."""\n    return ${parseExpr(t, "obj", def)}\n`;
  }
  return out;
}

function aliasValue(t: TypeRef): string {
  // Aliases are evaluated at import time, so they name only typing constructs and builtins.
  switch (t.k) {
    case "any":
      return "Any";
    case "array":
      return `List[${aliasValue(t.items)}]`;
    case "map":
      return `Dict[str, ${aliasValue(t.values)}]`;
    case "record":
    case "union":
      return q(t.name);
    default:
      return annotation(t);
  }
}
