// Starts reveal.js for reveal.html (kept in a file so the page needs no inline script).
Reveal.initialize({ hash: true, width: 1100, height: 760, margin: 0.04 });
