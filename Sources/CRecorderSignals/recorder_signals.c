#define _GNU_SOURCE
#include "recorder_signals.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <stddef.h>
#include <string.h>
#include <time.h>

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
#define CRASH_SIGNAL_COUNT (sizeof(crash_signals) / sizeof(crash_signals[0]))

static struct sigaction previous_actions[CRASH_SIGNAL_COUNT];
static int installed = 0;
static lifetrace_exit_words exit_words;

static int64_t monotonic_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

int lifetrace_store_exit_fact(uint64_t kind, int64_t value) {
    if (exit_words.kind == NULL) return 0;
    // The first fact wins: a crash inside an exit handler keeps the signal only if no code came.
    uint64_t expected = 0;
    // Claim the word with a value that readers ignore (3), fill the fields, then publish.
    if (!__atomic_compare_exchange_n(exit_words.kind, &expected, 3, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return 0;
    __atomic_store_n(exit_words.value, value, __ATOMIC_RELAXED);
    __atomic_store_n(exit_words.timestamp, monotonic_now(), __ATOMIC_RELAXED);
    __atomic_store_n(exit_words.kind, kind, __ATOMIC_RELEASE);
    return 1;
}

static void wait_for_seal(void) {
    if (exit_words.sealed == NULL) return;
    int64_t waited = 0;
    const struct timespec step = {0, 5000000};
    while (__atomic_load_n(exit_words.sealed, __ATOMIC_ACQUIRE) == 0 && waited < exit_words.sealTimeoutNanoseconds) {
        nanosleep(&step, NULL);
        waited += step.tv_nsec;
    }
}

static void hand_on(int signal_number, siginfo_t *info, void *context) {
    for (size_t index = 0; index < CRASH_SIGNAL_COUNT; index++) {
        if (crash_signals[index] != signal_number) continue;
        struct sigaction *previous = &previous_actions[index];
        if (previous->sa_flags & SA_SIGINFO) {
            if (previous->sa_sigaction != NULL) {
                previous->sa_sigaction(signal_number, info, context);
                return;
            }
        } else if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
            previous->sa_handler(signal_number);
            return;
        }
        // The default action: restore it and raise again; the signal is blocked while this
        // handler runs, so the process ends as soon as the handler returns.
        sigaction(signal_number, previous, NULL);
        if (previous->sa_handler == SIG_IGN) signal(signal_number, SIG_DFL);
        raise(signal_number);
        return;
    }
}

static void crash_handler(int signal_number, siginfo_t *info, void *context) {
    if (lifetrace_store_exit_fact(2, signal_number)) wait_for_seal();
    hand_on(signal_number, info, context);
}

int lifetrace_install_crash_handlers(lifetrace_exit_words words) {
    exit_words = words;
    if (installed) return 0;
    installed = 1;
    int status = 0;
    for (size_t index = 0; index < CRASH_SIGNAL_COUNT; index++) {
        struct sigaction action;
        memset(&action, 0, sizeof(action));
        action.sa_sigaction = crash_handler;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        if (sigaction(crash_signals[index], &action, &previous_actions[index]) != 0) status = -1;
    }
    return status;
}

int lifetrace_sealed_region_fd(uint64_t size) {
#if defined(__linux__) && defined(MFD_ALLOW_SEALING) && defined(F_SEAL_SHRINK)
    int created = memfd_create("lifetrace-region", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (created < 0) return -1;
    int fd = fcntl(created, F_DUPFD_CLOEXEC, 10);
    int saved = errno;
    close(created);
    if (fd < 0) {
        errno = saved;
        return -1;
    }
    if (ftruncate(fd, (off_t)size) != 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
        saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
#else
    (void)size;
    errno = ENOSYS;
    return -1;
#endif
}

int lifetrace_file_kind(const char *path) {
    struct stat info;
    if (lstat(path, &info) != 0) return 0;
    if (S_ISREG(info.st_mode)) return 1;
    if (S_ISLNK(info.st_mode)) return 2;
    return 3;
}
