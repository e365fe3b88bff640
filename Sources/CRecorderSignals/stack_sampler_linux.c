// The stall sampler on Linux: a signal handler walks the interrupted thread's frame pointers,
// the images come from dl_iterate_phdr (docs/RECORDING.md, "Stack samples"). Apple platforms
// have theirs in stack_sampler_darwin.c.
#if defined(__linux__)
#define _GNU_SOURCE
#include "stack_sampler.h"

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

static pthread_t sampled_thread;
static int prepared = 0;
static uintptr_t stack_low = 0;
static uintptr_t stack_high = 0;
static sem_t answered;
// The buffer the handler fills; the taker reads it only after the handler posted `answered`.
static uint64_t buffer[LIFETRACE_SAMPLE_MAX_FRAMES];
static volatile int buffer_count = 0;
// Requests sent and not yet answered (0 or 1): a request the taker gave up on is not repeated,
// its late answer is the next call's sample.
static int64_t stale_answers = 0;
// When the handler walked the stack of the last answer (ns on CLOCK_MONOTONIC).
static volatile int64_t answer_ns = 0;

int lifetrace_sampler_supported(void) {
#if defined(__x86_64__) || defined(__aarch64__)
    return 1;
#else
    return 0;
#endif
}

static void walk(void *context) {
    int count = 0;
#if defined(__x86_64__) || defined(__aarch64__)
    ucontext_t *uc = (ucontext_t *)context;
#if defined(__x86_64__)
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    uintptr_t fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
#else
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.pc;
    uintptr_t fp = (uintptr_t)uc->uc_mcontext.regs[29];
#endif
    count = lifetrace_walk_frames(pc, fp, stack_low, stack_high, lifetrace_read_frame_record, NULL, buffer, LIFETRACE_SAMPLE_MAX_FRAMES);
#else
    (void)context;
#endif
    buffer_count = count;
}

// Time spent in the handler, for measurements (clock_gettime is async-signal-safe).
static int64_t handler_nanoseconds = 0;

static int64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static void handler(int signal_number, siginfo_t *info, void *context) {
    (void)signal_number;
    (void)info;
    int saved = errno;
    int64_t start = now_ns();
    answer_ns = start;
    walk(context);
    __atomic_add_fetch(&handler_nanoseconds, now_ns() - start, __ATOMIC_RELAXED);
    sem_post(&answered);
    errno = saved;
}

int64_t lifetrace_sampler_answer_time(void) { return answer_ns; }

int64_t lifetrace_sampler_handler_nanoseconds(void) { return __atomic_load_n(&handler_nanoseconds, __ATOMIC_RELAXED); }

int lifetrace_sampler_prepare(int signal_number) {
    if (prepared) return 0;
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return -1;
    void *address = NULL;
    size_t size = 0;
    int status = pthread_attr_getstack(&attributes, &address, &size);
    pthread_attr_destroy(&attributes);
    if (status != 0 || address == NULL || size == 0) return -1;
    stack_low = (uintptr_t)address;
    stack_high = (uintptr_t)address + size;
    if (sem_init(&answered, 0, 0) != 0) return -1;
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_sigaction = handler;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(signal_number, &action, NULL) != 0) return -1;
    sampled_thread = pthread_self();
    prepared = signal_number;
    return 0;
}

// Copies the handler's last answer (posted on `answered`, which the caller has just taken).
static int copy_answer(uint64_t *frames) {
    int count = buffer_count;
    if (count < 0) count = 0;
    if (count > LIFETRACE_SAMPLE_MAX_FRAMES) count = LIFETRACE_SAMPLE_MAX_FRAMES;
    memcpy(frames, buffer, (size_t)count * sizeof(uint64_t));
    return count;
}

int lifetrace_sampler_take(uint64_t *frames, int64_t timeout_ns) {
    if (!prepared) return -1;
    // A request given up on is answered late, when the thread got a core again: its stack is
    // the one the thread had then (between the last call and this one), and is the sample of
    // this call; no new request is sent while it is unanswered. (At most one is outstanding.)
    if (stale_answers > 0) {
        if (sem_trywait(&answered) != 0) return 0;
        stale_answers = 0;
        return copy_answer(frames);
    }
    if (pthread_kill(sampled_thread, prepared) != 0) return -1;
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += timeout_ns / 1000000000;
    deadline.tv_nsec += timeout_ns % 1000000000;
    if (deadline.tv_nsec >= 1000000000) {
        deadline.tv_sec += 1;
        deadline.tv_nsec -= 1000000000;
    }
    while (sem_timedwait(&answered, &deadline) != 0) {
        if (errno == EINTR) continue;
        stale_answers++;
        return 0;
    }
    return copy_answer(frames);
}

struct visit {
    void *context;
    lifetrace_image_visitor visitor;
};

static int visit_image(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct visit *visit = (struct visit *)data;
    uintptr_t low = UINTPTR_MAX, high = 0;
    const uint8_t *build_id = NULL;
    uint32_t build_id_length = 0;
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type == PT_LOAD) {
            uintptr_t start = info->dlpi_addr + header->p_vaddr;
            uintptr_t end = start + header->p_memsz;
            if (start < low) low = start;
            if (end > high) high = end;
        } else if (header->p_type == PT_NOTE && build_id == NULL) {
            const uint8_t *note = (const uint8_t *)(info->dlpi_addr + header->p_vaddr);
            const uint8_t *notes_end = note + header->p_memsz;
            while (note + sizeof(ElfW(Nhdr)) <= notes_end) {
                const ElfW(Nhdr) *entry = (const ElfW(Nhdr) *)note;
                const uint8_t *name = note + sizeof(ElfW(Nhdr));
                const uint8_t *desc = name + ((entry->n_namesz + 3) & ~3u);
                if (desc + entry->n_descsz > notes_end) break;
                if (entry->n_type == NT_GNU_BUILD_ID && entry->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
                    build_id = desc;
                    build_id_length = entry->n_descsz;
                    break;
                }
                note = desc + ((entry->n_descsz + 3) & ~3u);
            }
        }
    }
    // The base is the load bias (what an address minus it is in the file's own addresses, as
    // addr2line and llvm-symbolizer take them); the size reaches the end of the highest mapping.
    if (high > low && high > info->dlpi_addr)
        visit->visitor(visit->context, info->dlpi_name ? info->dlpi_name : "", info->dlpi_addr, high - info->dlpi_addr, build_id, build_id_length);
    return 0;
}

void lifetrace_loaded_images(void *context, lifetrace_image_visitor visitor) {
    struct visit visit = {context, visitor};
    dl_iterate_phdr(visit_image, &visit);
}

int lifetrace_executable_path(char *buffer, uint32_t size) {
    if (size < 1) return -1;
    ssize_t length = readlink("/proc/self/exe", buffer, size - 1);
    if (length <= 0) return -1;
    buffer[length] = 0;
    return 0;
}

#endif
