// The platform-neutral parts of the stall sampler: the frame-pointer walk, given the registers of
// a stopped thread, its stack bounds and a way to read a frame record; and what a loaded Mach-O
// image's header says of it. Both are tested on Linux (LifetraceRecorderTests); the platforms'
// samplers (stack_sampler_linux.c, stack_sampler_darwin.c) only feed them.

#ifndef LIFETRACE_FRAME_WALK_H
#define LIFETRACE_FRAME_WALK_H

#include <stdint.h>

/// Reads the frame record at `address` (two pointer-sized words: the caller's frame pointer, then
/// the return address) into `record`; returns 1, or 0 when it could not be read. Called only for
/// addresses inside the walk's bounds, aligned to a pointer.
typedef int (*lifetrace_frame_reader)(void *context, uint64_t address, uint64_t record[2]);

/// Reads the record with plain loads: for a stack of the calling process that stays mapped while
/// it is read (the interrupted thread's own, or a suspended thread's). Async-signal-safe.
int lifetrace_read_frame_record(void *context, uint64_t address, uint64_t record[2]);

/// Walks the frame records from `fp` into `frames`, innermost first: `pc` (the instruction the
/// thread was at), then each record's return address. A record must lie inside
/// `stack_low ..< stack_high`, aligned to a pointer; the walk ends at one that does not, at a
/// return address of 0, at a caller's frame pointer not above the current one (so it always
/// ends), when `read` fails, or after `capacity` frames. Returns the count (0 only when
/// `capacity` < 1). Allocates nothing, takes no lock: callable from a signal handler and while
/// another thread is suspended.
int lifetrace_walk_frames(uint64_t pc, uint64_t fp, uint64_t stack_low, uint64_t stack_high, lifetrace_frame_reader read,
                          void *context, uint64_t *frames, int capacity);

/// What a 64-bit Mach-O header's load commands say of its image.
typedef struct {
    /// `LC_UUID`: the build's UUID, which the image's dSYM carries too (`has_uuid` 0 if none).
    uint8_t uuid[16];
    int has_uuid;
    /// The `__TEXT` segment: its address in the file (`vmaddr`) and size (`vmsize`); `has_text`
    /// 0 if there is none. Loaded, the header is at the start of `__TEXT`.
    uint64_t text_vmaddr;
    uint64_t text_size;
    int has_text;
} lifetrace_macho_image;

/// Reads the load commands of the 64-bit Mach-O header at `header`, never past `available`
/// bytes from it nor past the commands' own size (`sizeofcmds`). Returns 0, or -1 when it is no
/// 64-bit Mach-O header or a command overruns the commands (what was read before is kept).
int lifetrace_macho_image_read(const uint8_t *header, uint64_t available, lifetrace_macho_image *image);

#endif
