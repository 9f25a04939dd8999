/* corpus_disk.h — a corpus writer's file on disk (corpus_write.c): room reserved before each batch, so that
 * HDF5 never writes half a batch into a full disk, a full quota or a file size limit (HDF5 updates its
 * superblock and chunk index in place while it flushes, and a flush cut short leaves a file it cannot open);
 * the file detached from HDF5 after a write that failed anyway; what is left of the reservation given back
 * at the end. Internal to bench/corpus. */
#ifndef CB_CORPUS_DISK_H
#define CB_CORPUS_DISK_H

#include <hdf5.h>
#include <stddef.h>
#include <sys/types.h>

/* Reserves need bytes past the end of the open file f (path): fallocate keeping its size, which takes the
 * blocks from the file system and the quota, or where that is not supported a look at the free space.
 * The file size limit (ulimit -f) is checked too. 0, with *end the reservation's end (kept when larger);
 * 1 with why (no room: how much was needed and what refused it). */
int corpus_disk_reserve(hid_t f, const char *path, double need, off_t *end, char *why, size_t len);
/* Points HDF5's descriptor of f at /dev/null: closing f then writes nothing to the file, which keeps the
 * state of its last flush. */
void corpus_disk_detach(hid_t f, const char *path);
/* Gives back the reserved blocks past the end of the closed file path (up to end). */
void corpus_disk_release(const char *path, off_t end);

#endif
