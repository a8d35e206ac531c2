/* LD_PRELOAD fixture for test_output.py's race cases: the first look at a path whose last
 * component is a chosen name (stat, lstat, fstatat, statx, open, openat and their 64-bit and
 * fortified spellings) completes, and then the process stops until the test has changed the
 * file system. A change "between two looks" so happens at one known point, every run, instead
 * of by luck.
 *
 * Environment (read at each call):
 *   STALL_NAME=<name>   the last path component to watch
 *   STALL_DIR=<dir>     holds two FIFOs the test made: the shim writes "paused\n" to
 *                       <dir>/paused when it stops, then reads <dir>/resume to its end and goes on
 * Only the first matching call in the process stops.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int g_stalled;

static int watched(const char* path) {
    const char* want = getenv("STALL_NAME");
    if (g_stalled || path == NULL || want == NULL || *want == '\0') return 0;
    const char* slash = strrchr(path, '/');
    return strcmp(slash != NULL ? slash + 1 : path, want) == 0;
}

/* Raw system calls: the shim's own opens must not be watched or recurse. */
static int raw_open(const char* path, int flags) {
    return (int)syscall(SYS_openat, AT_FDCWD, path, flags | O_CLOEXEC, 0);
}

static void stall_after(const char* path) {
    if (!watched(path)) return;
    g_stalled = 1;
    const int saved = errno;
    const char* dir = getenv("STALL_DIR");
    char fifo[4096];
    snprintf(fifo, sizeof fifo, "%s/paused", dir != NULL ? dir : ".");
    int fd = raw_open(fifo, O_WRONLY); /* blocks until the test listens */
    if (fd >= 0) {
        (void)!write(fd, "paused\n", 7);
        close(fd);
    }
    snprintf(fifo, sizeof fifo, "%s/resume", dir != NULL ? dir : ".");
    fd = raw_open(fifo, O_RDONLY); /* blocks until the test has made its change */
    if (fd >= 0) {
        char buf[64];
        while (read(fd, buf, sizeof buf) > 0) {
        }
        close(fd);
    }
    errno = saved;
}

/* The next definition of `name` (libc's), looked up once: REAL(stat, int, (const char*, ...)). */
#define REAL(name, ret, params)     \
    typedef ret(*name##_fn) params; \
    static name##_fn real_##name;   \
    if (real_##name == NULL) real_##name = (name##_fn)dlsym(RTLD_NEXT, #name)

int stat(const char* path, struct stat* st) {
    REAL(stat, int, (const char*, struct stat*));
    const int rc = real_stat(path, st);
    stall_after(path);
    return rc;
}

int lstat(const char* path, struct stat* st) {
    REAL(lstat, int, (const char*, struct stat*));
    const int rc = real_lstat(path, st);
    stall_after(path);
    return rc;
}

int stat64(const char* path, struct stat64* st) {
    REAL(stat64, int, (const char*, struct stat64*));
    const int rc = real_stat64(path, st);
    stall_after(path);
    return rc;
}

int lstat64(const char* path, struct stat64* st) {
    REAL(lstat64, int, (const char*, struct stat64*));
    const int rc = real_lstat64(path, st);
    stall_after(path);
    return rc;
}

int fstatat(int dir, const char* path, struct stat* st, int flags) {
    REAL(fstatat, int, (int, const char*, struct stat*, int));
    const int rc = real_fstatat(dir, path, st, flags);
    stall_after(path);
    return rc;
}

int fstatat64(int dir, const char* path, struct stat64* st, int flags) {
    REAL(fstatat64, int, (int, const char*, struct stat64*, int));
    const int rc = real_fstatat64(dir, path, st, flags);
    stall_after(path);
    return rc;
}

int statx(int dir, const char* path, int flags, unsigned mask, struct statx* st) {
    REAL(statx, int, (int, const char*, int, unsigned, struct statx*));
    const int rc = real_statx(dir, path, flags, mask, st);
    stall_after(path);
    return rc;
}

static mode_t mode_arg(int flags, va_list args) {
    return (flags & (O_CREAT | __O_TMPFILE)) != 0 ? (mode_t)va_arg(args, int) : 0;
}

int open(const char* path, int flags, ...) {
    REAL(open, int, (const char*, int, ...));
    va_list args;
    va_start(args, flags);
    const mode_t mode = mode_arg(flags, args);
    va_end(args);
    const int rc = real_open(path, flags, mode);
    stall_after(path);
    return rc;
}

int open64(const char* path, int flags, ...) {
    REAL(open64, int, (const char*, int, ...));
    va_list args;
    va_start(args, flags);
    const mode_t mode = mode_arg(flags, args);
    va_end(args);
    const int rc = real_open64(path, flags, mode);
    stall_after(path);
    return rc;
}

int openat(int dir, const char* path, int flags, ...) {
    REAL(openat, int, (int, const char*, int, ...));
    va_list args;
    va_start(args, flags);
    const mode_t mode = mode_arg(flags, args);
    va_end(args);
    const int rc = real_openat(dir, path, flags, mode);
    stall_after(path);
    return rc;
}

int openat64(int dir, const char* path, int flags, ...) {
    REAL(openat64, int, (int, const char*, int, ...));
    va_list args;
    va_start(args, flags);
    const mode_t mode = mode_arg(flags, args);
    va_end(args);
    const int rc = real_openat64(dir, path, flags, mode);
    stall_after(path);
    return rc;
}

int __open_2(const char* path, int flags) {
    REAL(__open_2, int, (const char*, int));
    const int rc = real___open_2(path, flags);
    stall_after(path);
    return rc;
}

int __openat_2(int dir, const char* path, int flags) {
    REAL(__openat_2, int, (int, const char*, int));
    const int rc = real___openat_2(dir, path, flags);
    stall_after(path);
    return rc;
}
