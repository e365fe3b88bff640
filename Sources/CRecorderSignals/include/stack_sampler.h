// The stack-taking side of the stall sampler: a signal handler that walks the interrupted
// thread's frame pointers into a preallocated buffer, and the loaded images the addresses are
// resolved against. Everything the handler does is async-signal-safe: loads from the thread's
// own stack (checked against its bounds first), stores to static memory, sem_post.

#ifndef LIFETRACE_STACK_SAMPLER_H
#define LIFETRACE_STACK_SAMPLER_H

#include <stdint.h>

/// The most frames one sample holds.
#define LIFETRACE_SAMPLE_MAX_FRAMES 256

/// Remembers the calling thread as the one to sample, with its stack bounds, and installs the
/// handler for `signal_number` (SA_RESTART, so an interrupted system call goes on). Returns 0,
/// -1 if the bounds or the handler could not be had. Call on the thread to sample.
int lifetrace_sampler_prepare(int signal_number);

/// Interrupts the prepared thread and waits at most `timeout_ns` for its handler to walk its
/// stack; copies the frames (innermost first: the interrupted instruction, then return
/// addresses) into `frames` (room for LIFETRACE_SAMPLE_MAX_FRAMES) and returns their count, 0
/// when the thread did not answer in time, or -1 when no thread was prepared. A request not
/// answered in time is not repeated: the next call returns its late answer (the stack the thread
/// had when it ran again, after the last call) if it came, else 0. One caller at a time.
int lifetrace_sampler_take(uint64_t *frames, int64_t timeout_ns);

/// When the stack the last successful lifetrace_sampler_take returned was walked (ns on
/// CLOCK_MONOTONIC): the sample's time, later than the request for a late answer.
int64_t lifetrace_sampler_answer_time(void);

/// The time the handler has spent so far, in nanoseconds (for measurements).
int64_t lifetrace_sampler_handler_nanoseconds(void);

/// Whether this platform's handler can read the interrupted registers (Linux x86_64, aarch64).
int lifetrace_sampler_supported(void);

/// Called with each loaded image: its path (the main executable's is empty on Linux), its load
/// bias (an address minus it is the address in the file), the bytes from there to the end of its
/// highest mapping, and its GNU build id (`build_id_length` bytes, 0 if none).
typedef void (*lifetrace_image_visitor)(void *context, const char *path, uint64_t base, uint64_t size,
                                        const uint8_t *build_id, uint32_t build_id_length);

/// Calls `visitor` for every image loaded now (dl_iterate_phdr). Not async-signal-safe.
void lifetrace_loaded_images(void *context, lifetrace_image_visitor visitor);

#endif
