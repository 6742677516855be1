// The board editor's pure helpers (Sources/Host/Web/editor.js): which square a touch is on, straight drags,
// paths toggled by a second drag, and the board object a save sends (PROTOCOL.md §8.5 `boardEditor`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellAt, snap, togglePath, nextID, boardObject } from '../../Sources/Host/Web/editor.js';

test('a point on the drawn grid names its square, and one outside names none', () => {
  const rect = { left: 10, top: 20, width: 720, height: 480 };
  assert.deepEqual(cellAt(10, 20, rect, 12, 8), { x: 0, y: 0 });
  assert.deepEqual(cellAt(10 + 719, 20 + 479, rect, 12, 8), { x: 11, y: 7 });
  assert.deepEqual(cellAt(10 + 130, 20 + 61, rect, 12, 8), { x: 2, y: 1 });
  assert.equal(cellAt(9, 30, rect, 12, 8), null);
  assert.equal(cellAt(10 + 720, 30, rect, 12, 8), null);
  assert.equal(cellAt(30, 20 + 480, rect, 12, 8), null);
});

test('a drag stays on the row or column it is nearest to', () => {
  assert.deepEqual(snap({ x: 2, y: 2 }, { x: 6, y: 3 }), { x: 6, y: 2 });
  assert.deepEqual(snap({ x: 2, y: 2 }, { x: 3, y: 7 }), { x: 2, y: 7 });
  assert.deepEqual(snap({ x: 2, y: 2 }, { x: 0, y: 2 }), { x: 0, y: 2 });
});

test('a drag between two tiles adds their path, a second one takes it away, in either direction', () => {
  let paths = togglePath([], 3, 1);
  assert.deepEqual(paths, [[1, 3]]);
  paths = togglePath(paths, 2, 3);
  assert.deepEqual(paths, [[1, 3], [2, 3]]);
  paths = togglePath(paths, 1, 3);
  assert.deepEqual(paths, [[2, 3]]);
});

test('new tiles take the next free id and a save sends the board file object', () => {
  assert.equal(nextID([]), 1);
  assert.equal(nextID([{ id: 4 }, { id: 2 }]), 5);
  const board = boardObject({
    name: '  Our path ', list: 'en', level: 1, tiles: [{ id: 1, word: 'sun', x: 0, y: 0, start: true },
      { id: 2, word: 'rain', x: 3, y: 0 }], paths: [[1, 2]], selected: 1,
  });
  assert.deepEqual(board, {
    name: 'Our path', list: 'en', level: 1,
    tiles: [{ id: 1, word: 'sun', x: 0, y: 0, start: true }, { id: 2, word: 'rain', x: 3, y: 0, start: false }],
    paths: [[1, 2]],
  });
});
