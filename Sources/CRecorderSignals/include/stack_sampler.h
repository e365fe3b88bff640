// The stack-taking side of the stall sampler, one interface for every platform: the sampled
// thread's frame pointers walked into a preallocated buffer, and the loaded images the addresses
// are resolved against. On Linux (stack_sampler_linux.c) a signal handler walks the interrupted
// thread's stack; everything it does is async-signal-safe: loads from the thread's own stack
// (checked against its bounds first), stores to static memory, sem_post. On Apple platforms
// (stack_sampler_darwin.c) the sampling thread suspends the sampled one (`thread_suspend`),
// reads its registers (`thread_get_state`), walks its stack and resumes it; the images come
// from dyld. The walk itself is frame_walk.c's, on both.

#ifndef LIFETRACE_STACK_SAMPLER_H
#define LIFETRACE_STACK_SAMPLER_H

#include <stdint.h>

#include "frame_walk.h"

/// The most frames one sample holds.
#define LIFETRACE_SAMPLE_MAX_FRAMES 256

/// Remembers the calling thread as the one to sample, with its stack bounds, and on Linux installs
/// the handler for `signal_number` (SA_RESTART, so an interrupted system call goes on; Apple
/// platforms send no signal and ignore it). Returns 0, -1 if the bounds or the handler could not
/// be had. Call on the thread to sample.
int lifetrace_sampler_prepare(int signal_number);

/// Interrupts the prepared thread and waits at most `timeout_ns` for its handler to walk its
/// stack; copies the frames (innermost first: the interrupted instruction, then return
/// addresses) into `frames` (room for LIFETRACE_SAMPLE_MAX_FRAMES) and returns their count, 0
/// when the thread did not answer in time, or -1 when no thread was prepared. A request not
/// answered in time is not repeated: the next call returns its late answer (the stack the thread
/// had when it ran again, after the last call) if it came, else 0. One caller at a time.
/// On Apple platforms the thread is suspended, walked and resumed within the call (no wait for
/// it to be scheduled, `timeout_ns` unused); 0 when it could not be suspended or read. Called on
/// the sampled thread itself, it walks the caller's own stack.
int lifetrace_sampler_take(uint64_t *frames, int64_t timeout_ns);

/// When the stack the last successful lifetrace_sampler_take returned was walked (ns on
/// CLOCK_MONOTONIC): the sample's time, later than the request for a late answer.
int64_t lifetrace_sampler_answer_time(void);

/// The time the handler has spent so far, in nanoseconds (for measurements); on Apple platforms
/// the time the sampled thread was held suspended.
int64_t lifetrace_sampler_handler_nanoseconds(void);

/// Whether this platform's sampler can read the sampled thread's registers (Linux x86_64,
/// aarch64; Apple arm64, x86_64).
int lifetrace_sampler_supported(void);

/// Called with each loaded image: its path (the main executable's is empty on Linux), its base
/// and size, and its build id (`build_id_length` bytes, 0 if none). On Linux the base is the load
/// bias (an address minus it is the address in the file), the size reaches the end of its highest
/// mapping, the build id is the GNU build id. On Apple platforms the base is the address of its
/// Mach-O header (the start of its `__TEXT` segment: what `atos -l` takes), the size is
/// `__TEXT`'s, the build id its `LC_UUID` (16 bytes).
typedef void (*lifetrace_image_visitor)(void *context, const char *path, uint64_t base, uint64_t size,
                                        const uint8_t *build_id, uint32_t build_id_length);

/// Calls `visitor` for every image loaded now (dl_iterate_phdr; on Apple platforms dyld's image
/// list). Not async-signal-safe.
void lifetrace_loaded_images(void *context, lifetrace_image_visitor visitor);

/// Writes the main executable's path, NUL-terminated, into `buffer` (`size` bytes): Linux reads
/// `/proc/self/exe`, Apple platforms ask dyld (`_NSGetExecutablePath`). Returns 0, or -1 when it
/// is not known or does not fit.
int lifetrace_executable_path(char *buffer, uint32_t size);

#endif
