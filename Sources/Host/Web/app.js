// Placeholder from the transport branch: the page helper's app.js replaces this file.
document.getElementById('app').textContent = 'Partyline: the page is not built yet.';
