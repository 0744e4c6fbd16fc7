// Share links: a result's inputs and seed in the URL's query, so the same page on any device asks
// the engine the same question and shows the same answer. A link is read as untrusted text: a
// value that does not fit its field is dropped with a reason, never passed on as it came.

const NAME = /^[A-Za-z]{1,12}$/;

// How each kind of field is written into, and read back from, a query parameter.
const FIELDS = {
  text: {
    write: (value) => String(value),
    read: (raw) => (raw.length <= 500 ? raw : null),
  },
  int: {
    write: (value) => String(value),
    read: (raw) => (/^-?\d{1,16}$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : null),
  },
  bool: {
    write: (value) => (value ? "1" : "0"),
    read: (raw) => (raw === "1" ? true : raw === "0" ? false : null),
  },
  // named values, "STR:3,DEX:-1" (what the dice engine takes as vars)
  vars: {
    write: (value) => Object.entries(value).map(([name, score]) => `${name}:${score}`).join(","),
    read: (raw) => {
      const out = {};
      for (const pair of raw.split(",").filter(Boolean)) {
        const [name, score, extra] = pair.split(":");
        if (extra !== undefined || !NAME.test(name ?? "") || !/^-?\d{1,9}$/.test(score ?? "")) return null;
        out[name] = Number(score);
      }
      return out;
    },
  },
};

/** How a field of `kind` is written and read: one of FIELDS, or a list of the values it may take
 *  (a choice, such as a ruling's two readings: anything else is refused). */
function codec(kind) {
  if (!Array.isArray(kind)) return FIELDS[kind];
  return { write: (value) => String(value), read: (raw) => (kind.includes(raw) ? raw : null) };
}

/**
 * The query string for `state` under `schema` ({field: "text" | "int" | "bool" | "vars" | [values]}):
 * fields that are null, undefined or empty are left out.
 */
export function writeQuery(schema, state) {
  const params = new URLSearchParams();
  for (const [field, kind] of Object.entries(schema)) {
    const value = state[field];
    if (value === null || value === undefined || value === "") continue;
    if (kind === "vars" && Object.keys(value).length === 0) continue;
    params.set(field, codec(kind).write(value));
  }
  const query = params.toString();
  return query ? `?${query}` : "";
}

/**
 * Read a query string back under `schema`: {values, problems}. `values` holds only the fields
 * present and valid; `problems` says, in a reader's words, what was present but not valid: by
 * the field's label in `labels`, else by the value alone (a link's names are not a reader's).
 */
export function readQuery(schema, search, labels = {}) {
  const params = new URLSearchParams(search);
  const values = {};
  const problems = [];
  for (const [field, kind] of Object.entries(schema)) {
    const raw = params.get(field);
    if (raw === null) continue;
    const value = codec(kind).read(raw);
    if (value === null) {
      const what = labels[field] ? `this link's ${labels[field]} “${raw.slice(0, 40)}”` : `part of this link (“${raw.slice(0, 40)}”)`;
      problems.push(`${what} could not be read, so it was left out`);
    }
    else values[field] = value;
  }
  return { values, problems };
}

/** An absolute link to `pagePath` (relative to the site's root, e.g. "tools/roller/") with `state`. */
export function shareLink(siteRoot, pagePath, schema, state) {
  return new URL(pagePath + writeQuery(schema, state), siteRoot).href;
}

// The longest link a result is offered with: relative to the site's root, as the roll log keeps
// it (kept/schema.js checkRoll reads it from here).
export const MAX_LINK = 1000;

/**
 * shareLink, when the link gives a reader back what was asked, whole: every value written reads
 * back as it was (text of at most 500 characters) and the link, relative to the site's root, has
 * at most MAX_LINK characters. Else null: no link is offered, for one that left a value out
 * would show another result than the one it stands for.
 */
export function fittingLink(siteRoot, pagePath, schema, state) {
  const query = writeQuery(schema, state);
  if (pagePath.length + query.length > MAX_LINK) return null;
  if (writeQuery(schema, readQuery(schema, query).values) !== query) return null; // a value would not read back
  return new URL(pagePath + query, siteRoot).href;
}

/**
 * The address of `path` if it is a page of this site (relative to `siteRoot`: "tools/roller/?seed=3"),
 * else null. Paths come from kept or imported data: a `javascript:` URL, another host or a way
 * out of the site must never become a live link.
 */
export function sitePage(siteRoot, path) {
  if (typeof path !== "string" || !/^[a-z0-9][\w\-./]*(?:[?#][^\s]*)?$/i.test(path) || /^[a-z][\w+.-]*:/i.test(path)) return null;
  const root = new URL(siteRoot);
  const url = new URL(path, root);
  return url.origin === root.origin && url.pathname.startsWith(root.pathname) ? url.href : null;
}
