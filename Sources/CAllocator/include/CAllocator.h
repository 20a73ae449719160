#ifndef FLOW_CALLOCATOR_H
#define FLOW_CALLOCATOR_H
// The `flow` executable's memory allocator: mimalloc (Debian's libmimalloc-dev), linked into the
// executable so that it replaces glibc's malloc for the whole process. Why: see "Dependencies" in
// README.md and BENCHMARKS.md, "Issue 32, round eight". Nothing here needs calling from Swift:
// linking this target is what puts mimalloc in the process.

/// mimalloc's version as it reports it (for example 209 for 2.0.9): 0 is never returned.
int flow_allocator_version(void);

#endif
