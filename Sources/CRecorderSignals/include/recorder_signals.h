// The crash-signal side of LifetraceRecorder: handlers that write the `exit` fact of a crashing
// process into the recorder's region and hand the signal on. Written in C so that everything the
// handler does is async-signal-safe by construction (stores to mapped memory, nanosleep,
// sigaction, raise).

#ifndef LIFETRACE_RECORDER_SIGNALS_H
#define LIFETRACE_RECORDER_SIGNALS_H

#include <stdint.h>

#include "stack_sampler.h"

/// Where a crash handler writes, all inside the recorder's region.
typedef struct {
    /// 0 none, 1 exit code, 2 signal: stored last, with release ordering.
    uint64_t *kind;
    /// The code or signal number.
    int64_t *value;
    /// The time of the fact, CLOCK_MONOTONIC nanoseconds.
    int64_t *timestamp;
    /// Set to a non-zero value by the writer once the trace is sealed.
    uint64_t *sealed;
    /// How long a handler waits for the writer to seal the trace before it hands the signal on.
    int64_t sealTimeoutNanoseconds;
} lifetrace_exit_words;

/// Installs the handlers for SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT and SIGTRAP, remembering the
/// handlers installed before (they run after ours). Returns 0, or -1 if any sigaction call failed.
/// Later calls only change where the handlers write.
int lifetrace_install_crash_handlers(lifetrace_exit_words words);

/// Stores an exit fact (`kind` 1 for a code, 2 for a signal) unless one is already stored; returns
/// whether this call stored it. Async-signal-safe.
int lifetrace_store_exit_fact(uint64_t kind, int64_t value);

/// A shared-memory file of `size` bytes for a recorder region that the process it is shared with
/// cannot shrink (Linux: a memfd sealed with F_SEAL_SHRINK, F_SEAL_GROW and F_SEAL_SEAL, so a
/// truncation by the other process fails instead of making this process's reads fault with
/// SIGBUS). The descriptor is close-on-exec and numbered 10 or above (a spawn's dup2 to a low
/// number then always makes a fresh, inheritable copy). Returns the descriptor, or -1 with errno
/// set (ENOSYS where the system has no sealed memfd).
int lifetrace_sealed_region_fd(uint64_t size);

/// What is at `path`, not following a symbolic link: 0 nothing (or it cannot be told), 1 a
/// regular file, 2 a symbolic link, 3 anything else.
int lifetrace_file_kind(const char *path);

#endif
