/* LD_PRELOAD fixture for test_completion_stall.py: the directory read or the link read of a
 * device listing blocks, as on a --root on a hung mount, without root or FUSE.
 *
 * Environment (read at each call):
 *   STALL_LISTING=readdir     readdir(3) blocks
 *   STALL_LISTING=readlinkat  readlinkat(2) blocks
 * The sleep resumes after a signal it survives: a read on a hard NFS mount is not interrupted
 * either (only a signal whose action ends the process ends it).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void stall_if(const char* call) {
    const char* which = getenv("STALL_LISTING");
    if (which == NULL || strcmp(which, call) != 0) return;
    struct timespec left = {600, 0};
    while (nanosleep(&left, &left) != 0 && errno == EINTR) {
    }
}

struct dirent* readdir(DIR* dir) {
    static struct dirent* (*real_readdir)(DIR*);
    if (real_readdir == NULL)
        real_readdir = (struct dirent * (*)(DIR*)) dlsym(RTLD_NEXT, "readdir");
    stall_if("readdir");
    return real_readdir(dir);
}

struct dirent64* readdir64(DIR* dir) {
    static struct dirent64* (*real_readdir64)(DIR*);
    if (real_readdir64 == NULL)
        real_readdir64 = (struct dirent64 * (*)(DIR*)) dlsym(RTLD_NEXT, "readdir64");
    stall_if("readdir");
    return real_readdir64(dir);
}

ssize_t readlinkat(int dirfd, const char* path, char* buf, size_t size) {
    static ssize_t (*real_readlinkat)(int, const char*, char*, size_t);
    if (real_readlinkat == NULL)
        real_readlinkat =
            (ssize_t(*)(int, const char*, char*, size_t))dlsym(RTLD_NEXT, "readlinkat");
    stall_if("readlinkat");
    return real_readlinkat(dirfd, path, buf, size);
}
