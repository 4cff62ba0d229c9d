// A stand-in Worker for the Node tests of the page's worker links (training-link,
// real-models-link): records what it was posted; the test plays its replies and errors.
export class FakeWorker {
  posted = [];
  terminated = false;
  postMessage(m) {
    this.posted.push(m);
  }
  terminate() {
    this.terminated = true;
  }
  reply(data) {
    this.onmessage({ data });
  }
  // an error event; true when the link called preventDefault (took it as handled)
  fail(message) {
    let prevented = false;
    this.onerror({ message, preventDefault: () => (prevented = true) });
    return prevented;
  }
}
