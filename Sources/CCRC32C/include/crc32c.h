// CRC-32C (Castagnoli) with the processor's own instruction, for LifetraceFormat's checksums.
//
// The running value follows the same convention as LifetraceFormat's table-driven CRC32C: it
// starts at 0xFFFFFFFF and is inverted at the end by the caller.

#ifndef LIFETRACE_CRC32C_H
#define LIFETRACE_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/// Whether this processor has a CRC-32C instruction this library uses (SSE 4.2 on x86-64, the
/// ARMv8 CRC extension on 64-bit ARM builds that enable it).
int lifetrace_crc32c_hardware_available(void);

/// Adds `count` bytes to the running value `state`; only call it when the hardware is available.
uint32_t lifetrace_crc32c_hardware_update(uint32_t state, const void *bytes, size_t count);

#endif
