// flow's own command line, in this package, is FlowKit's first client: it imports FlowKit alone
// (a test reads its imports) and reaches through these the engine's `package` declarations it
// still uses (the run's settings, diagnostics of a run, the dry run, the journal's runs, the
// Argo export); its log, summary, `validate`, `graph` and `schema` use FlowKit's public API
// alone. None of those modules declares anything `public`, so an app that imports FlowKit sees
// FlowKit's public API and nothing else.
@_exported import FlowDSL
@_exported import FlowDigest
@_exported import FlowEngine
@_exported import FlowJournal
@_exported import FlowTasks
