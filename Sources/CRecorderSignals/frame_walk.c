#include "frame_walk.h"

#include <string.h>

int lifetrace_read_frame_record(void *context, uint64_t address, uint64_t record[2]) {
    (void)context;
    const uintptr_t *words = (const uintptr_t *)(uintptr_t)address;
    record[0] = words[0];
    record[1] = words[1];
    return 1;
}

int lifetrace_walk_frames(uint64_t pc, uint64_t fp, uint64_t stack_low, uint64_t stack_high, lifetrace_frame_reader read,
                          void *context, uint64_t *frames, int capacity) {
    if (capacity < 1) return 0;
    int count = 0;
    frames[count++] = pc;
    const uint64_t record_size = 2 * sizeof(uintptr_t);
    // Each frame record is {caller's frame pointer, return address}, higher on the stack than
    // the last: a pointer outside the thread's stack, misaligned or not moving up ends the walk.
    if (stack_high < stack_low || stack_high - stack_low < record_size) return count;
    while (count < capacity) {
        if (fp < stack_low || fp > stack_high - record_size || (fp & (sizeof(uintptr_t) - 1)) != 0) break;
        uint64_t record[2];
        if (!read(context, fp, record)) break;
        uint64_t next = record[0];
        uint64_t ret = record[1];
        if (ret == 0) break;
        frames[count++] = ret;
        if (next <= fp) break;
        fp = next;
    }
    return count;
}

// Mach-O constants (<mach-o/loader.h>, which Linux does not have): the 64-bit header's magic,
// and the two load commands read here.
enum {
    MACHO_MAGIC_64 = 0xfeedfacf,
    MACHO_HEADER_64_SIZE = 32,
    MACHO_LC_SEGMENT_64 = 0x19,
    MACHO_LC_UUID = 0x1b,
    MACHO_SEGMENT_64_SIZE = 72,
    MACHO_UUID_COMMAND_SIZE = 24,
};

static uint32_t read32(const uint8_t *bytes) {
    uint32_t value;
    memcpy(&value, bytes, sizeof(value));
    return value;
}

static uint64_t read64(const uint8_t *bytes) {
    uint64_t value;
    memcpy(&value, bytes, sizeof(value));
    return value;
}

int lifetrace_macho_image_read(const uint8_t *header, uint64_t available, lifetrace_macho_image *image) {
    memset(image, 0, sizeof(*image));
    // Loaded images are in the byte order of the process (little-endian on every Apple target).
    if (header == NULL || available < MACHO_HEADER_64_SIZE || read32(header) != MACHO_MAGIC_64) return -1;
    uint32_t command_count = read32(header + 16);
    uint64_t commands_size = read32(header + 20);
    uint64_t end = available - MACHO_HEADER_64_SIZE < commands_size ? available - MACHO_HEADER_64_SIZE : commands_size;
    uint64_t offset = 0;
    for (uint32_t index = 0; index < command_count; index++) {
        if (end - offset < 8) return -1;
        const uint8_t *command = header + MACHO_HEADER_64_SIZE + offset;
        uint32_t kind = read32(command);
        uint32_t size = read32(command + 4);
        if (size < 8 || size > end - offset) return -1;
        if (kind == MACHO_LC_UUID && size >= MACHO_UUID_COMMAND_SIZE && !image->has_uuid) {
            memcpy(image->uuid, command + 8, 16);
            image->has_uuid = 1;
        } else if (kind == MACHO_LC_SEGMENT_64 && size >= MACHO_SEGMENT_64_SIZE && !image->has_text &&
                   memcmp(command + 8, "__TEXT\0\0\0\0\0\0\0\0\0\0", 16) == 0) {
            image->text_vmaddr = read64(command + 24);
            image->text_size = read64(command + 32);
            image->has_text = 1;
        }
        offset += size;
    }
    return 0;
}
