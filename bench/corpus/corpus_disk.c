/* corpus_disk.c — room on disk for a corpus writer's batches (corpus_disk.h). fallocate with
 * FALLOC_FL_KEEP_SIZE allocates the blocks the batch will be written to without changing the file's size,
 * so HDF5's writes into them cannot fail for space or quota, and HDF5 sees no change of the file. */
#define _GNU_SOURCE /* fallocate, FALLOC_FL_* */
#include "corpus_disk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* HDF5's file descriptor of f (the sec2 driver's), or -1. */
static int hdf5_fd(hid_t f)
{
  int *fd = NULL;
  return H5Fget_vfd_handle(f, H5P_DEFAULT, (void **)&fd) < 0 || !fd ? -1 : *fd;
}

int corpus_disk_reserve(hid_t f, const char *path, double need, off_t *end, char *why, size_t len)
{
  const int fd = hdf5_fd(f);
  struct stat st;
  hsize_t hdf5_size = 0;
  if (fd < 0 || fstat(fd, &st) != 0 || H5Fget_filesize(f, &hdf5_size) < 0) return 0; /* not a plain file */
  /* from the file's size on: HDF5 may have allocated past it what it has not written yet */
  const double from = (double)st.st_size,
               want = need + ((double)hdf5_size > from ? (double)hdf5_size - from : 0);
  struct rlimit rl;
  if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
      from + want > (double)rl.rlim_cur) {
    snprintf(why, len, "the file size limit (%.0f kB, ulimit -f) leaves no room for the next batch (%.0f kB)",
             (double)rl.rlim_cur / 1024, want / 1024);
    return 1;
  }
  if (fallocate(fd, FALLOC_FL_KEEP_SIZE, st.st_size, (off_t)want) == 0) {
    if ((off_t)(from + want) > *end) *end = (off_t)(from + want);
    return 0;
  }
  if (errno != EOPNOTSUPP && errno != ENOSYS) {
    snprintf(why, len, "no room for the next batch (%.0f kB): %s", want / 1024, strerror(errno));
    return 1;
  }
  struct statvfs fs; /* a file system without fallocate: its free space (no reservation) */
  if (statvfs(path, &fs) != 0 || (double)fs.f_bavail * (double)fs.f_frsize >= want) return 0;
  snprintf(why, len, "no room for the next batch (%.0f kB needed, %.0f kB free on its file system)",
           want / 1024, (double)fs.f_bavail * (double)fs.f_frsize / 1024);
  return 1;
}

void corpus_disk_detach(hid_t f, const char *path)
{
  const int fd = hdf5_fd(f), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (fd < 0 || null < 0 || dup2(null, fd) < 0)
    fprintf(stderr, "warning: %s: cannot detach the file\n", path);
  if (null >= 0) close(null);
}

void corpus_disk_release(const char *path, off_t end)
{
  struct stat st;
  int fd = end > 0 ? open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
  if (fd >= 0 && fstat(fd, &st) == 0 && end > st.st_size)
    fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, st.st_size, end - st.st_size);
  if (fd >= 0) close(fd);
}
