// Not on phones yet: a placeholder view.
export default {
  name: 'queen',
  title: 'queen',
  create(ctx) {
    const root = ctx.el('div', {}, ctx.el('p', { class: 'big', text: 'This game is not on phones yet — use a laptop.' }));
    return { root, handle: () => false, dispose() {} };
  },
};
