// The stall sampler on Apple platforms: the sampling thread suspends the sampled one
// (`thread_suspend`), reads its instruction and frame pointers (`thread_get_state`: arm64 on a
// device, x86_64 or arm64 in the simulator), walks its frame records within its stack's bounds
// (frame_walk.c) and resumes it; the images come from dyld's list, with their LC_UUID. Linux has
// its own in stack_sampler_linux.c; the interface is stack_sampler.h.
//
// While the thread is suspended this code only loads from its stack and stores into the
// caller's buffer: no allocation, no lock, no call that could wait for something the suspended
// thread holds (malloc, dyld, the Objective-C runtime), so it cannot deadlock on it.
#if defined(__APPLE__)
#include "stack_sampler.h"

#include <mach-o/dyld.h>
#include <mach/mach.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

static pthread_t sampled_pthread;
static thread_act_t sampled_thread = MACH_PORT_NULL;
static int prepared = 0;
static uint64_t stack_low = 0;
static uint64_t stack_high = 0;
// When the last sample's stack was walked, and the time the sampled thread was held suspended.
static int64_t answer_ns = 0;
static int64_t suspended_nanoseconds = 0;

int lifetrace_sampler_supported(void) {
#if defined(__arm64__) || defined(__x86_64__)
    return 1;
#else
    return 0;
#endif
}

static int64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

int64_t lifetrace_sampler_answer_time(void) { return __atomic_load_n(&answer_ns, __ATOMIC_RELAXED); }

int64_t lifetrace_sampler_handler_nanoseconds(void) { return __atomic_load_n(&suspended_nanoseconds, __ATOMIC_RELAXED); }

int lifetrace_sampler_prepare(int signal_number) {
    (void)signal_number;
    if (prepared) return 0;
    pthread_t self = pthread_self();
    // pthread_get_stackaddr_np is the stack's highest address (it grows down from there).
    uint64_t high = (uint64_t)(uintptr_t)pthread_get_stackaddr_np(self);
    uint64_t size = (uint64_t)pthread_get_stacksize_np(self);
    if (high == 0 || size == 0 || size > high) return -1;
    // The port is the thread's own (pthread_mach_thread_np takes no reference to release).
    thread_act_t thread = pthread_mach_thread_np(self);
    if (thread == MACH_PORT_NULL) return -1;
    stack_high = high;
    stack_low = high - size;
    sampled_pthread = self;
    sampled_thread = thread;
    prepared = 1;
    return 0;
}

#if defined(__arm64__)
// The return addresses of arm64e code (the system's libraries) carry a pointer-authentication
// code in their high bits. XPACLRI strips it from x30 as the hardware's address size says, and
// is a hint (a no-op) on cores without pointer authentication, so it is right on every device.
static uint64_t strip_code(uint64_t address) {
    register uint64_t lr __asm__("x30") = address;
    __asm__("hint #7" : "+r"(lr));
    return lr;
}
#else
static uint64_t strip_code(uint64_t address) { return address; }
#endif

static int read_signed_record(void *context, uint64_t address, uint64_t record[2]) {
    if (!lifetrace_read_frame_record(context, address, record)) return 0;
    record[1] = strip_code(record[1]);
    return 1;
}

// The suspended thread's instruction and frame pointers; 0 if the kernel would not say.
static int read_registers(thread_act_t thread, uint64_t *pc, uint64_t *fp) {
#if defined(__arm64__)
    arm_thread_state64_t state;
    mach_msg_type_number_t count = ARM_THREAD_STATE64_COUNT;
    if (thread_get_state(thread, ARM_THREAD_STATE64, (thread_state_t)&state, &count) != KERN_SUCCESS) return 0;
    *pc = strip_code((uint64_t)arm_thread_state64_get_pc(state));
    *fp = (uint64_t)arm_thread_state64_get_fp(state);
    return 1;
#elif defined(__x86_64__)
    x86_thread_state64_t state;
    mach_msg_type_number_t count = x86_THREAD_STATE64_COUNT;
    if (thread_get_state(thread, x86_THREAD_STATE64, (thread_state_t)&state, &count) != KERN_SUCCESS) return 0;
    *pc = state.__rip;
    *fp = state.__rbp;
    return 1;
#else
    (void)thread;
    (void)pc;
    (void)fp;
    return 0;
#endif
}

int lifetrace_sampler_take(uint64_t *frames, int64_t timeout_ns) {
    (void)timeout_ns;
    if (!prepared) return -1;
    int64_t start = now_ns();
    int count = 0;
    if (pthread_equal(pthread_self(), sampled_pthread)) {
        // A thread cannot suspend itself and go on: it walks its own stack from here.
        uint64_t fp = (uint64_t)(uintptr_t)__builtin_frame_address(0);
        count = lifetrace_walk_frames((uint64_t)(uintptr_t)&lifetrace_sampler_take, fp, stack_low, stack_high, read_signed_record,
                                      NULL, frames, LIFETRACE_SAMPLE_MAX_FRAMES);
    } else {
        if (thread_suspend(sampled_thread) != KERN_SUCCESS) return 0;
        uint64_t pc = 0, fp = 0;
        if (read_registers(sampled_thread, &pc, &fp))
            count = lifetrace_walk_frames(pc, fp, stack_low, stack_high, read_signed_record, NULL, frames, LIFETRACE_SAMPLE_MAX_FRAMES);
        thread_resume(sampled_thread);
    }
    int64_t end = now_ns();
    __atomic_store_n(&answer_ns, start, __ATOMIC_RELAXED);
    __atomic_add_fetch(&suspended_nanoseconds, end - start, __ATOMIC_RELAXED);
    return count;
}

void lifetrace_loaded_images(void *context, lifetrace_image_visitor visitor) {
    // dyld may add an image while this runs: an index past the end gives a NULL header, skipped;
    // an image added later is written at a later stall.
    uint32_t count = _dyld_image_count();
    for (uint32_t index = 0; index < count; index++) {
        const struct mach_header *header = _dyld_get_image_header(index);
        const char *path = _dyld_get_image_name(index);
        if (header == NULL) continue;
        lifetrace_macho_image image;
        // A loaded image's header and load commands are mapped: the read is bounded by the
        // commands' own size.
        if (lifetrace_macho_image_read((const uint8_t *)header, UINT64_MAX, &image) != 0 || !image.has_text) continue;
        // The header is where __TEXT was loaded (its vmaddr plus the image's slide,
        // _dyld_get_image_vmaddr_slide): an address minus the base plus __TEXT's vmaddr is the
        // address in the file.
        visitor(context, path ? path : "", (uint64_t)(uintptr_t)header, image.text_size, image.has_uuid ? image.uuid : NULL,
                image.has_uuid ? 16 : 0);
    }
}

int lifetrace_executable_path(char *buffer, uint32_t size) {
    uint32_t room = size;
    return _NSGetExecutablePath(buffer, &room) == 0 ? 0 : -1;
}

#endif
