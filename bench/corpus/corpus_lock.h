/* corpus_lock.h — the one-writer lock of a corpus file: FILE.lock beside it, flock'd by the writer for as
 * long as it has the file open, holding "host H, pid P" for the refusal message. Internal to bench/corpus. */
#ifndef CB_CORPUS_LOCK_H
#define CB_CORPUS_LOCK_H

#include <stddef.h>

/* Takes path's lock: 0 with *fd; 1 with err naming the file and the other writer when it is held. */
int corpus_lock_take(const char *path, int *fd, char *err, size_t len);
/* Removes the lock file and lets the lock go (fd -1: nothing). */
void corpus_lock_release(const char *path, int *fd);
/* In a child forked while this process holds locks (corpus_check.c's reader): closes its copies of them, so
 * that the lock goes with the writer when the writer dies (an flock lives while any copy of its descriptor
 * is open; a reader child still running when its writer is killed kept it held, and the next writer was
 * refused). The parent's locks are untouched. */
void corpus_lock_close_inherited(void);

#endif
