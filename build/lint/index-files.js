/**
 * An index file only names what its folder offers: every statement in `index.ts` (or .tsx, .js, .mjs) is a
 * re-export (`export … from`, `export * from`), so the code lives in modules named for what they do and a
 * reader opening a folder's index finds its surface, not its work (VS Code's and Grist's index files are the
 * same). Comments are free; an import, a declaration, an expression or a local `export { x }` is refused.
 */
const MESSAGE =
  'An index file only re-exports (`export … from`): move this code to a module named for what it does (build/lint/index-files.js).';

const reExport = (node) =>
  node.type === 'ExportAllDeclaration' || (node.type === 'ExportNamedDeclaration' && node.source !== null);

export default {
  rules: {
    'reexports-only': {
      meta: { type: 'problem', schema: [], docs: { description: 'Index files only re-export.' } },
      create(context) {
        return {
          Program(program) {
            for (const node of program.body) if (!reExport(node)) context.report({ node, message: MESSAGE });
          },
        };
      },
    },
  },
};
