/**
 * Go emitter: package `agjson` (Go 1.19, standard library only). Every record is a struct whose
 * `UnmarshalJSON` reads known fields by exact name and keeps the rest in `Extra`, and whose
 * `MarshalJSON` writes them back; every union is a wrapper struct `{ Value <Union>Variant }` whose
 * `UnmarshalJSON` reads the tag and decodes into the variant (a tagged decode switch), with an
 * `Unknown…` variant holding the raw fields of a tag this version does not know (§0.2).
 */
import type { Field, Model, RecordModel, TypeRef, UnionModel, VariantTarget } from "./model.js";

const IDENT = /^[A-Za-z][A-Za-z0-9]*$/;
const INITIALISMS = new Map([
  ["Id", "ID"],
  ["Url", "URL"],
  ["Uri", "URI"],
  ["Json", "JSON"],
  ["Api", "API"],
  ["Http", "HTTP"],
]);

/** `turnId` → `TurnID`, `_meta` → `Meta`, `a2uiMessage` → `A2uiMessage`. */
export function goFieldName(json: string): string {
  const words = json
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .flatMap((w) => w.split(/(?<=[a-z0-9])(?=[A-Z])/));
  const name = words
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .map((w) => INITIALISMS.get(w) ?? w)
    .join("");
  return /^[0-9]/.test(name) ? `X${name}` : name;
}

const q = (s: string): string => JSON.stringify(s);

function comment(lines: string[], indent = ""): string {
  return (
    lines
      .flatMap((l) => l.split("\n"))
      .map((l) => (l ? `${indent}// ${l}` : `${indent}//`))
      .join("\n") + "\n"
  );
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

function goType(t: TypeRef): string {
  switch (t.k) {
    case "any":
      return "json.RawMessage";
    case "string":
      return "string";
    case "integer":
      return "int64";
    case "number":
      return "float64";
    case "boolean":
      return "bool";
    case "array":
      return `[]${goType(t.items)}`;
    case "map":
      return `map[string]${goType(t.values)}`;
    case "record":
    case "union":
    case "alias":
      return t.name;
  }
}

/** Types whose zero value (nil) already means "absent", so an optional field needs no pointer. */
function nilable(t: TypeRef): boolean {
  return t.k === "any" || t.k === "array" || t.k === "map" || (t.k === "alias" && nilable(t.target));
}

function fieldNames(rec: RecordModel): Map<Field, string> {
  const out = new Map<Field, string>();
  const used = new Set(["Extra"]);
  for (const f of rec.fields) {
    const n = goFieldName(f.json);
    if (!IDENT.test(n)) throw new Error(`other-languages/go: ${rec.name}.${f.json} yields ${JSON.stringify(n)}, not a Go identifier`);
    if (used.has(n))
      throw new Error(
        `other-languages/go: ${rec.name}.${f.json} maps to the field ${n}, already taken (Extra is reserved for unknown fields)`,
      );
    used.add(n);
    out.set(f, n);
  }
  return out;
}

function renderRecord(rec: RecordModel, source: (def: string) => string, unionsOf: string[]): string {
  const names = fieldNames(rec);
  const doc = [
    `${rec.name}: ${rec.description ? oneLine(rec.description) : rec.name}`,
    "",
    `@generated from ${source(rec.def)}#/$defs/${rec.from}`,
  ];
  let out = comment(doc) + `type ${rec.name} struct {\n`;
  for (const f of rec.fields) {
    const n = names.get(f)!;
    const t = f.required || nilable(f.type) ? goType(f.type) : `*${goType(f.type)}`;
    if (f.description) out += comment([oneLine(f.description)], "\t");
    if (f.constValue !== undefined) out += `\t// Always ${q(f.constValue)}; MarshalJSON writes it when left empty.\n`;
    out += `\t${n} ${t} \`json:"${f.json}${f.required ? "" : ",omitempty"}"\`\n`;
  }
  out += `\t// Extra holds the fields this version of the schema does not know, kept verbatim so\n\t// MarshalJSON round-trips them (§0.2).\n`;
  out += `\tExtra map[string]json.RawMessage \`json:"-"\`\n}\n\n`;

  out += `// UnmarshalJSON reads the known fields by their exact wire names and keeps the rest in Extra.\n`;
  out += `func (v *${rec.name}) UnmarshalJSON(data []byte) error {\n`;
  out += `\tm, err := decodeObject(data, ${q(rec.name)})\n\tif err != nil {\n\t\treturn err\n\t}\n\t*v = ${rec.name}{}\n`;
  for (const f of rec.fields) {
    out += `\tif err := takeField(m, ${q(f.json)}, ${f.required}, ${q(rec.name)}, &v.${names.get(f)}); err != nil {\n\t\treturn err\n\t}\n`;
  }
  out += `\tv.Extra = restFields(m)\n\treturn nil\n}\n\n`;

  out += `// MarshalJSON writes the known fields in schema order, then Extra.\n`;
  out += `func (v ${rec.name}) MarshalJSON() ([]byte, error) {\n\tw := newObjectWriter()\n`;
  for (const f of rec.fields) {
    const n = `v.${names.get(f)}`;
    if (f.constValue !== undefined && f.required) out += `\tw.field(${q(f.json)}, orConst(${n}, ${q(f.constValue)}))\n`;
    else if (f.required) out += `\tw.field(${q(f.json)}, ${n})\n`;
    else out += `\tif ${n} != nil {\n\t\tw.field(${q(f.json)}, ${n})\n\t}\n`;
  }
  out += `\treturn w.finish(v.Extra)\n}\n`;
  for (const u of unionsOf) out += `\nfunc (*${rec.name}) is${u}() {}\n`;
  return out;
}

function variantTypes(u: UnionModel): string[] {
  const seen = new Set<string>();
  for (const t of [...u.cases.map((c) => c.target), ...(u.absent ? [u.absent] : []), ...(u.pattern ? [u.pattern.target] : [])])
    seen.add(t.name);
  return [...seen, u.unknownName];
}

const lowerFirst = (s: string): string => s[0]!.toLowerCase() + s.slice(1);

function renderUnion(u: UnionModel, source: (def: string) => string): string {
  const variants = variantTypes(u);
  const iface = `${u.name}Variant`;
  const doc = [
    `${u.name}: ${u.description ? oneLine(u.description) : u.name}`,
    "",
    `Decoding reads \`${u.tag}\` and decodes into the matching variant; Value is one of`,
    variants.map((v) => `*${v}`).join(", ") + ".",
    "",
    `@generated from ${source(u.def)}#/$defs/${u.def}`,
  ];
  let out = comment(doc) + `type ${u.name} struct {\n\tValue ${iface}\n}\n\n`;
  out += `// ${iface} is implemented by every variant of ${u.name}.\ntype ${iface} interface {\n\tis${u.name}()\n}\n\n`;
  out += comment([
    `${u.unknownName}: a ${u.name} whose \`${u.tag}\` this version does not know, kept field by field so`,
    "it round-trips unchanged (lenient posture, §0.2).",
  ]);
  out += `type ${u.unknownName} struct {\n\tFields map[string]json.RawMessage\n}\n\n`;
  out += `// Tag returns the unrecognised \`${u.tag}\` value.\nfunc (v ${u.unknownName}) Tag() string {\n\tvar s string\n\t_ = json.Unmarshal(v.Fields[${q(u.tag)}], &s)\n\treturn s\n}\n\n`;
  out += `// UnmarshalJSON keeps every field as raw JSON.\nfunc (v *${u.unknownName}) UnmarshalJSON(data []byte) error {\n\tm, err := decodeObject(data, ${q(u.unknownName)})\n\tif err != nil {\n\t\treturn err\n\t}\n\tv.Fields = m\n\treturn nil\n}\n\n`;
  out += `// MarshalJSON writes the fields back unchanged.\nfunc (v ${u.unknownName}) MarshalJSON() ([]byte, error) {\n\treturn newObjectWriter().finish(v.Fields)\n}\n\n`;
  out += `func (*${u.unknownName}) is${u.name}() {}\n\n`;

  const cases = `${lowerFirst(u.name)}Cases`;
  const mk = (t: VariantTarget) => `func() ${iface} { return new(${t.name}) }`;
  out += `var ${cases} = map[string]func() ${iface}{\n`;
  for (const c of u.cases) out += `\t${q(c.value)}: ${mk(c.target)},\n`;
  out += `}\n\n`;
  const pattern = `${lowerFirst(u.name)}Pattern`;
  if (u.pattern) out += `var ${pattern} = regexp.MustCompile(${q(u.pattern.regex)})\n\n`;

  out += `// UnmarshalJSON is the tagged decode switch: it reads \`${u.tag}\` and decodes into that variant.\n`;
  out += `func (u *${u.name}) UnmarshalJSON(data []byte) error {\n\tm, err := decodeObject(data, ${q(u.name)})\n\tif err != nil {\n\t\treturn err\n\t}\n`;
  out += `\tvar x ${iface}\n`;
  if (u.absent) out += `\tif _, ok := m[${q(u.tag)}]; !ok {\n\t\tx = new(${u.absent.name})\n\t} else {\n`;
  const ind = u.absent ? "\t\t" : "\t";
  out += `${ind}tag, err := readTag(m, ${q(u.tag)}, ${q(u.name)})\n${ind}if err != nil {\n${ind}\treturn err\n${ind}}\n`;
  out += `${ind}if newVariant, ok := ${cases}[tag]; ok {\n${ind}\tx = newVariant()\n`;
  if (u.pattern) out += `${ind}} else if ${pattern}.MatchString(tag) {\n${ind}\tx = new(${u.pattern.target.name})\n`;
  out += `${ind}} else {\n${ind}\tx = new(${u.unknownName})\n${ind}}\n`;
  if (u.absent) out += `\t}\n`;
  out += `\tif err := json.Unmarshal(data, x); err != nil {\n\t\treturn err\n\t}\n\tu.Value = x\n\treturn nil\n}\n\n`;
  out += `// MarshalJSON writes the variant.\nfunc (u ${u.name}) MarshalJSON() ([]byte, error) {\n\tif u.Value == nil {\n\t\treturn nil, fmt.Errorf("agjson: ${u.name} has no Value; set it to one of its variants")\n\t}\n\treturn json.Marshal(u.Value)\n}\n`;
  for (const m of u.memberOf) out += `\nfunc (*${u.name}) is${m}() {}\n`;
  return out;
}

const RUNTIME = `package agjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
)

// decodeObject reads a JSON object as raw fields; anything else is an error naming the type.
func decodeObject(data []byte, where string) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil || m == nil {
		return nil, fmt.Errorf("agjson: %s: expected a JSON object", where)
	}
	return m, nil
}

// takeField decodes the field key into dst and removes it from m, so what remains is unknown.
func takeField(m map[string]json.RawMessage, key string, required bool, where string, dst interface{}) error {
	raw, ok := m[key]
	if !ok {
		if required {
			return fmt.Errorf("agjson: %s: the required field %q is missing", where, key)
		}
		return nil
	}
	delete(m, key)
	if r, isRaw := dst.(*json.RawMessage); isRaw {
		*r = append(json.RawMessage(nil), raw...)
		return nil
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("agjson: %s.%s: %w", where, key, err)
	}
	return nil
}

// restFields is what takeField left: the unknown fields, or nil when there are none.
func restFields(m map[string]json.RawMessage) map[string]json.RawMessage {
	if len(m) == 0 {
		return nil
	}
	return m
}

// readTag reads a union's discriminator, which must be a string.
func readTag(m map[string]json.RawMessage, key string, where string) (string, error) {
	var tag string
	raw, ok := m[key]
	if !ok || json.Unmarshal(raw, &tag) != nil {
		return "", fmt.Errorf("agjson: %s: the discriminator %q must be a string", where, key)
	}
	return tag, nil
}

func orConst(v string, c string) string {
	if v == "" {
		return c
	}
	return v
}

// objectWriter writes a JSON object field by field, keeping the order it is given.
type objectWriter struct {
	buf bytes.Buffer
	err error
	n   int
}

func newObjectWriter() *objectWriter {
	w := &objectWriter{}
	w.buf.WriteByte('{')
	return w
}

func (w *objectWriter) field(key string, value interface{}) {
	if w.err != nil {
		return
	}
	b, err := json.Marshal(value)
	if err != nil {
		w.err = fmt.Errorf("agjson: field %q: %w", key, err)
		return
	}
	w.raw(key, b)
}

func (w *objectWriter) raw(key string, b []byte) {
	if w.n > 0 {
		w.buf.WriteByte(',')
	}
	k, _ := json.Marshal(key)
	w.buf.Write(k)
	w.buf.WriteByte(':')
	w.buf.Write(b)
	w.n++
}

// finish appends the extra fields in key order and closes the object.
func (w *objectWriter) finish(extra map[string]json.RawMessage) ([]byte, error) {
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if w.err != nil {
			break
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, extra[k]); err != nil {
			w.err = fmt.Errorf("agjson: unknown field %q is not valid JSON: %w", k, err)
			break
		}
		w.raw(k, compact.Bytes())
	}
	if w.err != nil {
		return nil, w.err
	}
	w.buf.WriteByte('}')
	return w.buf.Bytes(), nil
}
`;

/** Renders the Go files, paths relative to `generated/go/`. */
export function renderGo(
  model: Model,
  banner: string,
  source: (def: string) => string,
  roots: Record<string, string>,
  modulePath: string,
): Map<string, string> {
  const files = new Map<string, string>();
  files.set("go.mod", `${banner}module ${modulePath}\n\ngo 1.19\n`);
  files.set("agjson/runtime.go", `${banner}\n${RUNTIME}`);

  let out = `${banner}\n// Package agjson holds the AgJSON v1 types: one struct per record $def, one wrapper per union\n`;
  out += `// with a tagged decode switch, and unknown fields and types kept so they round-trip (§0.2).\n`;
  out += `// See docs/codegen-other-languages.md.\npackage agjson\n\nimport (\n\t"encoding/json"\n\t"fmt"\n\t"regexp"\n)\n`;
  for (const a of model.aliases) {
    out += `\n${comment([`${a.name}: ${a.description ? oneLine(a.description) : a.name}`, "", `@generated from ${source(a.def)}#/$defs/${a.def}`])}type ${a.name} = ${goType(a.target)}\n`;
  }
  for (const u of model.unions) out += `\n${renderUnion(u, source)}`;
  for (const rec of model.records) out += `\n${renderRecord(rec, source, model.recordUnions.get(rec.name) ?? [])}`;

  out += `\n// Event is the wrapper a stream decoder reads each event into: AgEvent under a short name.\ntype Event = AgEvent\n`;
  for (const [fn, def] of Object.entries(roots)) {
    out += `\n// ${fn} reads one ${def} (a document of its family's root type).\nfunc ${fn}(data []byte) (${def}, error) {\n\tvar v ${def}\n\terr := json.Unmarshal(data, &v)\n\treturn v, err\n}\n`;
  }
  out += `\n// DecodeDef reads a document of the $def name (e.g. "AgUsage") into its Go type.\nfunc DecodeDef(name string, data []byte) (interface{}, error) {\n\tswitch name {\n`;
  for (const { def, type } of model.defTypes) {
    out += `\tcase ${q(def)}:\n\t\tvar v ${goType(type)}\n\t\terr := json.Unmarshal(data, &v)\n\t\treturn v, err\n`;
  }
  out += `\t}\n\treturn nil, fmt.Errorf("agjson: no $def named %q", name)\n}\n`;
  files.set("agjson/types.go", out);
  return files;
}
