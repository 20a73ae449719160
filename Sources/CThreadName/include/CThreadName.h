#ifndef FLOW_CTHREAD_NAME_H
#define FLOW_CTHREAD_NAME_H

#pragma clang assume_nonnull begin

/// Names the calling thread for the system (at most 15 bytes on Linux; a longer name is refused):
/// what crash reports, gdb, `top -H` and Foundation's `Thread.name` getter show. Foundation's
/// `Thread.name` setter cannot be trusted to do it on Linux: before `start` it does nothing, and
/// inside the new thread it does nothing until `start` has stored the thread's handle, which the
/// new thread can outrun; the thread then keeps its creator's name (a Dispatch worker's
/// "oot.default-qos").
void flow_name_this_thread(const char *name);

#pragma clang assume_nonnull end

#endif
