/* LD_PRELOAD fixture for test_hangs.py: read(2) and pread(2) of one chosen file block, as on a
 * hung NFS mount, so a real regular-file read stalls in the probe without root or FUSE.
 *
 * Environment (read at each call):
 *   SLOW_READ_PATH=<host path>   the file whose reads stall (compared with the descriptor's
 *                                /proc/self/fd link, so however the file was opened)
 *   SLOW_READ_SECONDS=<s>        how long each such read sleeps first (default 600)
 *   SLOW_READ_SPIN=1             spin on the CPU instead of sleeping (until a signal ends the
 *                                process): a run that reaches its CPU time limit (ulimit -t)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static int is_slow(int fd) {
    const char* want = getenv("SLOW_READ_PATH");
    if (want == NULL || *want == '\0') return 0;
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    char target[4096];
    const int saved = errno;
    const ssize_t n = readlink(link, target, sizeof target - 1);
    errno = saved;
    if (n < 0) return 0;
    target[n] = '\0';
    return strcmp(target, want) == 0;
}

static void stall(void) {
    const char* spin = getenv("SLOW_READ_SPIN");
    if (spin != NULL && strcmp(spin, "1") == 0) {
        for (volatile unsigned long i = 0;; i = i + 1) {
        }
    }
    const char* text = getenv("SLOW_READ_SECONDS");
    const double seconds = text != NULL ? atof(text) : 600.0;
    struct timespec left = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    /* The sleep resumes after a signal: a read on a hard NFS mount is not interrupted either. */
    while (nanosleep(&left, &left) != 0 && errno == EINTR) {
    }
}

ssize_t read(int fd, void* buf, size_t count) {
    static ssize_t (*real_read)(int, void*, size_t);
    if (real_read == NULL) real_read = (ssize_t(*)(int, void*, size_t))dlsym(RTLD_NEXT, "read");
    if (is_slow(fd)) stall();
    return real_read(fd, buf, count);
}

ssize_t pread(int fd, void* buf, size_t count, off_t offset) {
    static ssize_t (*real_pread)(int, void*, size_t, off_t);
    if (real_pread == NULL)
        real_pread = (ssize_t(*)(int, void*, size_t, off_t))dlsym(RTLD_NEXT, "pread");
    if (is_slow(fd)) stall();
    return real_pread(fd, buf, count, offset);
}

ssize_t pread64(int fd, void* buf, size_t count, off_t offset) {
    return pread(fd, buf, count, offset);
}
