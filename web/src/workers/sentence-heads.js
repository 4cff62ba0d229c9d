// The trained-heads chapter's measurer (run by its Web Worker, sentence-heads-worker.js, or
// on the page when no worker can start): the head roles and the per-head ablation of the
// project's text model on the learner's own sentence, model.heads(text) and
// model.evaluate(text). heads(text) takes a few hundred ms (most of it the induction
// score's own sequences), which is why it runs off the page's thread.
//
// Messages in:  {type: 'load', bytes}        the model file (text-model.bin), once
//               {type: 'measure', id, text}  one sentence
// Messages out: {type: 'ready'}              once the model is loaded
//               {type: 'measured', id, text, heads, base}: heads = model.heads(text) (one
//                 entry per head: role scores, role, the sentence's loss with the head
//                 zeroed), base = model.evaluate(text) (the intact loss)
//               {type: 'error', id, message}: id of the sentence, or null when the core or
//                 the model could not be loaded (every later measure then fails too)
// createSentenceHeads({ready, post}) -> {receive(msg)}: ready resolves to the attn API (one
// with the trainer: loadModel), post sends a message out.

export function createSentenceHeads({ ready, post }) {
  let model = null; // a Promise of the loaded model
  const message = (e) => e?.message ?? String(e);

  function receive(msg) {
    if (msg?.type === 'load') {
      const old = model;
      model = Promise.resolve(ready).then((attn) => attn.loadModel(msg.bytes));
      old?.then((m) => m.dispose(), () => {});
      model.then(() => post({ type: 'ready' }), (e) => post({ type: 'error', id: null, message: message(e) }));
    } else if (msg?.type === 'measure') {
      const { id, text } = msg;
      if (!model) {
        post({ type: 'error', id, message: 'no model loaded' });
        return;
      }
      model.then((m) => {
        try {
          post({ type: 'measured', id, text, heads: m.heads(text), base: m.evaluate(text) });
        } catch (e) {
          post({ type: 'error', id, message: message(e) });
        }
      }, (e) => post({ type: 'error', id, message: message(e) }));
    }
  }
  return { receive };
}
