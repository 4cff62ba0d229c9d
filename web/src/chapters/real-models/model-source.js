// Where the real-models chapter's model comes from, before its worker reads it: a folder's URL
// from a link (?model=) or the widget's model attribute (modelUrl), the files of a drop
// (droppedFiles) and the files a picker gave (pickedModel). No DOM but the File and entry
// objects the browser hands over; tests/web/real-models-source.test.mjs.

// A model folder's URL from a link (?model=) or the widget's attribute: resolved against the
// document; a link's must stay on this site (a teacher's checkpoint next to the page).
export function modelUrl(value, { sameOrigin = true, base = document.baseURI } = {}) {
  if (typeof value !== 'string' || !value) return null;
  let u;
  try {
    u = new URL(value, base);
  } catch {
    return null;
  }
  if (!/^https?:$/.test(u.protocol)) return null;
  if (sameOrigin && u.origin !== new URL(base).origin) return null;
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  return u.href;
}

// The files of a drop: a folder's entries (one level down, as a model folder is flat) or the
// files themselves.
export async function droppedFiles(dt) {
  const entries = [...(dt.items ?? [])].map((it) => it.webkitGetAsEntry?.()).filter(Boolean);
  if (!entries.length) return [...(dt.files ?? [])];
  const out = [];
  const fileOf = (entry) => new Promise((res, rej) => entry.file(res, rej));
  for (const e of entries) {
    if (e.isFile) out.push(await fileOf(e));
    else if (e.isDirectory) {
      const reader = e.createReader();
      for (;;) {
        const batch = await new Promise((res, rej) => reader.readEntries(res, rej));
        if (!batch.length) break;
        for (const x of batch) if (x.isFile) out.push(await fileOf(x));
      }
    }
  }
  return out;
}

// The model in a picker's files: {files} to open, or {error} (the severalModels error the
// chapter says). A picked folder that holds several model folders (each with its
// config.json) would mix their files: said as such. One model in a subfolder: its files only.
export function pickedModel(files) {
  const dirOf = (f) => (f.webkitRelativePath || '').split('/').slice(0, -1).join('/');
  const models = [...new Set(files.filter((f) => f.name === 'config.json' && f.webkitRelativePath).map(dirOf))].sort();
  if (models.length > 1)
    return { error: { kind: 'severalModels', n: models.length, folders: models.slice(0, 4).join(', ') + (models.length > 4 ? ', …' : '') } };
  return { files: models.length ? files.filter((f) => !f.webkitRelativePath || dirOf(f) === models[0]) : files };
}
