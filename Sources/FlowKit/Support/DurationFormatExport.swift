// The command line and FlowArgo write durations with the engine's one formatter (FlowTasks'
// `DurationFormat`, a `package` type an app does not see), reached through FlowKit alone.
@_exported import enum FlowTasks.DurationFormat
