/**
 * ag-grid's markup behind the grid's door: a string or template outside renderer/src/grid/ that names the
 * grid's classes (`.ag-row`, `ag-cell`, `ag-Grid-…` column ids), its attributes (`row-index`, `row-id`,
 * `col-id`, `aria-rowindex`, `aria-colindex`) or its theme's data attribute (`agThemeMode`) fails lint, so a
 * query of the grid's DOM is written once, in grid/dom.ts, and asked in the app's words everywhere else.
 * Comments may name them (they are not read at run time).
 */
const MARKUP =
  /\bag-[a-zA-Z][\w-]*|\bag[A-Z][a-z]\w*|\b(?:row-index|row-id|col-id|aria-rowindex|aria-colindex)\b/;

/** A module's name (`import … from '../grid/ag-port'`, in any form of import) is a path, not markup. */
function isModuleName(node) {
  const parent = node.parent;
  switch (parent?.type) {
    case 'ImportDeclaration':
    case 'ExportNamedDeclaration':
    case 'ExportAllDeclaration':
    case 'ImportExpression':
    case 'TSImportType':
      return parent.source === node;
    case 'TSExternalModuleReference':
      return true;
    case 'TSLiteralType':
      return parent.parent?.type === 'TSImportType';
    case 'CallExpression':
      return parent.callee.type === 'Identifier' && parent.callee.name === 'require';
    default:
      return false;
  }
}

const markupRule = {
  meta: {
    type: 'problem',
    docs: { description: "Only renderer/src/grid/ reads ag-grid's markup" },
    schema: [],
  },
  create(context) {
    const check = (node, text) => {
      const found = typeof text === 'string' ? MARKUP.exec(text) : null;
      if (found)
        context.report({
          node,
          message: `"${found[0]}" is ag-grid's markup: only renderer/src/grid/ reads it (ask grid/dom.ts; docs/ARCHITECTURE.md, The grid port).`,
        });
    };
    return {
      Literal: (node) => isModuleName(node) || check(node, node.value),
      TemplateElement: (node) => check(node, node.value.cooked ?? node.value.raw),
    };
  },
};

export default { rules: { markup: markupRule } };
