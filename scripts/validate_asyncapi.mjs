// Validate an AsyncAPI document with the official parser (@asyncapi/parser, pinned in
// package.json, installed by `npm ci` in scripts/ensure_services.sh).
//
//   node scripts/validate_asyncapi.mjs [docs/asyncapi.yaml]
//
// Prints every diagnostic the parser reports (severity, path, message, line) and exits
// 1 when any is an error or a warning, or when the document could not be parsed at all:
// what a tool that loads the file would stumble on fails the suite.
import { readFileSync } from 'node:fs';
import { Parser, DiagnosticSeverity } from '@asyncapi/parser';

const path = process.argv[2] ?? 'docs/asyncapi.yaml';
const names = {
  [DiagnosticSeverity.Error]: 'error',
  [DiagnosticSeverity.Warning]: 'warning',
  [DiagnosticSeverity.Information]: 'info',
  [DiagnosticSeverity.Hint]: 'hint',
};

const parser = new Parser();
const { document, diagnostics } = await parser.parse(readFileSync(path, 'utf8'), {
  source: path,
});
for (const d of diagnostics) {
  const where = d.path.length ? d.path.join('.') : '(document)';
  const line = d.range ? d.range.start.line + 1 : '?';
  console.log(`${names[d.severity] ?? d.severity} ${d.code} at ${where} (line ${line}): ${d.message}`);
}
const failing = diagnostics.filter(
  (d) => d.severity === DiagnosticSeverity.Error || d.severity === DiagnosticSeverity.Warning,
);
if (document === undefined || failing.length > 0) {
  console.log(`${path}: INVALID (${failing.length} error(s) or warning(s))`);
  process.exit(1);
}
console.log(
  `${path}: valid AsyncAPI ${document.version()} (${diagnostics.length} diagnostic(s), ` +
    `${document.allMessages().length} message(s), ${document.allSchemas().length} schema(s))`,
);
