/**
 * Expected failures are not bugs: in the layers that run in Node (core/, server/, services/, host/,
 * electron/) a state the user, the disk or the network can cause is that layer's typed error (a ServiceError
 * with a kind, a SettingError, a RecordTableError, …), and a plain Error means a bug. So no file there but
 * core/invariant.ts makes one of JavaScript's own errors (`Error`, `TypeError`, `RangeError`, …) in any way:
 * thrown, thrown from a condition, kept in a variable, passed as a value (`reject(new Error(…))`,
 * `Promise.reject(…)`, an abort's reason), called without `new`, reached through `globalThis`, or aliased.
 * Naming one to test or extend it (`e instanceof Error`, `class X extends Error`, `Error.captureStackTrace`)
 * is not making one. Throwing or rejecting with something that is not an error at all (a string, a template,
 * an object or array literal) is refused too: the services' mapping would take it for a bug.
 */
const BUILT_IN = /^(?:Aggregate|Eval|Range|Reference|Syntax|Type|URI)?Error$/;
const GLOBAL_OBJECTS = new Set(['globalThis', 'global', 'window', 'self']);
const NOT_AN_ERROR = new Set(['Literal', 'TemplateLiteral', 'ObjectExpression', 'ArrayExpression']);

const MAKE =
  "is a plain error, which means a bug: a state the user can cause is the layer's typed error (ServiceError with a kind, SettingError, …); a true invariant is checked with invariant(condition, why) from core/invariant.ts.";
const NON_ERROR =
  "Throw or reject with the layer's typed error (ServiceError with a kind, SettingError, …), not a value that is not an error.";

/** Whether `node` (the constructor's name, or `globalThis.Error`) only names it to test or extend it. */
function onlyNamed(node) {
  const parent = node.parent;
  if (parent?.type === 'BinaryExpression' && parent.operator === 'instanceof' && parent.right === node)
    return true;
  if (
    (parent?.type === 'ClassDeclaration' || parent?.type === 'ClassExpression') &&
    parent.superClass === node
  )
    return true;
  // A static member (`Error.captureStackTrace`, `Error.prototype`) is read, not a new error made.
  return parent?.type === 'MemberExpression' && parent.object === node;
}

const isPromiseReject = (callee) =>
  callee.type === 'MemberExpression' &&
  callee.object.type === 'Identifier' &&
  callee.object.name === 'Promise' &&
  callee.property.type === 'Identifier' &&
  callee.property.name === 'reject';

const plainRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Expected failures are typed errors; a plain Error is a bug (core/invariant.ts)' },
    schema: [],
  },
  create(context) {
    const report = (node, name) => context.report({ node, message: `${name} ${MAKE}` });
    return {
      'Program:exit'() {
        // Every value reference to the global constructors, whatever the form: scope analysis follows a name
        // that is not declared in the file to the global one, so a local `Error` (a class of its own) passes.
        const globalScope = context.sourceCode.scopeManager.globalScope;
        if (!globalScope) return;
        const refs = [
          ...[...globalScope.set.values()].filter((v) => BUILT_IN.test(v.name)).flatMap((v) => v.references),
          ...globalScope.through.filter((r) => BUILT_IN.test(r.identifier.name)),
        ];
        for (const ref of new Set(refs)) {
          const id = ref.identifier;
          if (ref.isValueReference === false || onlyNamed(id)) continue;
          report(id, id.name);
        }
      },
      MemberExpression(node) {
        if (
          node.object.type === 'Identifier' &&
          GLOBAL_OBJECTS.has(node.object.name) &&
          !node.computed &&
          node.property.type === 'Identifier' &&
          BUILT_IN.test(node.property.name) &&
          !onlyNamed(node)
        )
          report(node, `${node.object.name}.${node.property.name}`);
      },
      ThrowStatement(node) {
        if (node.argument && NOT_AN_ERROR.has(node.argument.type))
          context.report({ node: node.argument, message: NON_ERROR });
      },
      CallExpression(node) {
        const first = node.arguments[0];
        if (first && NOT_AN_ERROR.has(first.type) && isPromiseReject(node.callee))
          context.report({ node: first, message: NON_ERROR });
      },
    };
  },
};

export default { rules: { plain: plainRule } };
