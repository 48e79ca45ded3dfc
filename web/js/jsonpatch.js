// RFC 6902 JSON Patch, applied to a copy of a document (the server sends one patch per version).

function unescape(token) {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function parse(pointer) {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`bad JSON pointer ${pointer}`);
  return pointer.slice(1).split('/').map(unescape);
}

function clone(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function resolveParent(doc, tokens) {
  let node = doc;
  for (const token of tokens.slice(0, -1)) {
    if (node === null || typeof node !== 'object') throw new Error('path through a non-container');
    node = Array.isArray(node) ? node[Number(token)] : node[token];
  }
  if (node === null || typeof node !== 'object') throw new Error('path to a non-container');
  return node;
}

function get(doc, tokens) {
  let node = doc;
  for (const token of tokens) {
    if (node === null || typeof node !== 'object') throw new Error('path through a non-container');
    node = Array.isArray(node) ? node[Number(token)] : node[token];
  }
  return node;
}

function index(array, token, forAdd) {
  if (forAdd && token === '-') return array.length;
  const i = Number(token);
  if (!/^(0|[1-9][0-9]*)$/.test(token) || i > array.length || (!forAdd && i === array.length)) {
    throw new Error(`bad array index ${token}`);
  }
  return i;
}

function add(doc, tokens, value) {
  if (tokens.length === 0) return value;
  const parent = resolveParent(doc, tokens);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent.splice(index(parent, last, true), 0, value);
  else parent[last] = value;
  return doc;
}

function remove(doc, tokens) {
  if (tokens.length === 0) return null;
  const parent = resolveParent(doc, tokens);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent.splice(index(parent, last, false), 1);
  else if (Object.prototype.hasOwnProperty.call(parent, last)) delete parent[last];
  else throw new Error(`nothing to remove at /${tokens.join('/')}`);
  return doc;
}

function equal(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Applies `patch` (a list of operations) to a copy of `doc` and returns the copy. Throws on a bad patch. */
export function applyPatch(doc, patch) {
  let out = clone(doc);
  for (const op of patch) {
    const path = parse(op.path);
    switch (op.op) {
      case 'add': out = add(out, path, clone(op.value)); break;
      case 'remove': out = remove(out, path); break;
      case 'replace': out = add(remove(out, path), path, clone(op.value)); break;
      case 'move': {
        const from = parse(op.from);
        const value = get(out, from);
        out = add(remove(out, from), path, value);
        break;
      }
      case 'copy': out = add(out, path, clone(get(out, parse(op.from)))); break;
      case 'test':
        if (!equal(get(out, path), op.value)) throw new Error(`test failed at ${op.path}`);
        break;
      default: throw new Error(`unknown patch op ${op.op}`);
    }
  }
  return out;
}
