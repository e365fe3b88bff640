#include "crc32c.h"

#include <string.h>

#if defined(__x86_64__)

#include <cpuid.h>
#include <nmmintrin.h>

int lifetrace_crc32c_hardware_available(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    return (ecx & bit_SSE4_2) != 0;
}

__attribute__((target("sse4.2")))
uint32_t lifetrace_crc32c_hardware_update(uint32_t state, const void *bytes, size_t count) {
    const unsigned char *pointer = bytes;
    uint64_t crc = state;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, pointer, 8);
        crc = _mm_crc32_u64(crc, word);
        pointer += 8;
        count -= 8;
    }
    uint32_t narrow = (uint32_t)crc;
    while (count > 0) {
        narrow = _mm_crc32_u8(narrow, *pointer);
        pointer += 1;
        count -= 1;
    }
    return narrow;
}

#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)

#include <arm_acle.h>

int lifetrace_crc32c_hardware_available(void) { return 1; }

uint32_t lifetrace_crc32c_hardware_update(uint32_t state, const void *bytes, size_t count) {
    const unsigned char *pointer = bytes;
    uint32_t crc = state;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, pointer, 8);
        crc = __crc32cd(crc, word);
        pointer += 8;
        count -= 8;
    }
    while (count > 0) {
        crc = __crc32cb(crc, *pointer);
        pointer += 1;
        count -= 1;
    }
    return crc;
}

#else

int lifetrace_crc32c_hardware_available(void) { return 0; }

uint32_t lifetrace_crc32c_hardware_update(uint32_t state, const void *bytes, size_t count) {
    (void)bytes;
    (void)count;
    return state;
}

#endif
