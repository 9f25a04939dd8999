/* corpus_lock.c — one writer per corpus file (corpus_lock.h): an flock on FILE.lock beside it. Not HDF5's own
 * file locking, which HDF5_USE_FILE_LOCKING=FALSE turns off (two writers then interleave their batches and
 * each overwrites the other's) and which, when on, only makes the second writer's open fail as if the file
 * were not a corpus. The kernel drops an flock when its holder dies (kill -9 included), so a lock file left
 * behind by a killed run is stale and harmless: the next writer takes it. A writer that closes removes its
 * lock file while it still holds the lock; one that opened the old file meanwhile notices (the path no longer
 * names what it locked) and tries again. */
#include "corpus_lock.h"

#include "corpus_layout.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static void lock_path(const char *path, char *out, size_t len) { snprintf(out, len, "%s.lock", path); }

/* The lock descriptors this process holds (a process holds a few writers at most). */
#define LOCKS_HELD_MAX 64
static int held_fd[LOCKS_HELD_MAX];
static int n_held;

static void held_add(int fd)
{
  if (n_held < LOCKS_HELD_MAX) held_fd[n_held++] = fd;
}

static void held_remove(int fd)
{
  for (int i = 0; i < n_held; i++)
    if (held_fd[i] == fd) {
      held_fd[i] = held_fd[--n_held];
      return;
    }
}

void corpus_lock_close_inherited(void)
{
  for (int i = 0; i < n_held; i++)
    close(held_fd[i]);
  n_held = 0;
}

/* The holder's "host H, pid P" line, or a note that it cannot be read. */
static void holder_of(int fd, char *out, size_t len)
{
  ssize_t got = pread(fd, out, len - 1, 0);
  out[got > 0 ? got : 0] = '\0';
  out[strcspn(out, "\n")] = '\0';
  if (!out[0]) snprintf(out, len, "holder unknown");
}

int corpus_lock_take(const char *path, int *out, char *err, size_t len)
{
  char lock[1040], holder[256];
  lock_path(path, lock, sizeof lock);
  *out = -1;
  for (int attempt = 0; attempt < 100; attempt++) {
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd < 0)
      return corpus_fail(err, len, "%s: cannot create the lock file %s: %s", path, lock, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB)) {
      int saved = errno;
      holder_of(fd, holder, sizeof holder);
      close(fd);
      if (saved == EWOULDBLOCK)
        return corpus_fail(err, len,
                           "%s is being written by another writer (%s; lock %s): one writer per file", path,
                           holder, lock);
      return corpus_fail(err, len, "%s: cannot lock %s: %s", path, lock, strerror(saved));
    }
    struct stat held, named;
    if (fstat(fd, &held) == 0 && stat(lock, &named) == 0 && held.st_dev == named.st_dev &&
        held.st_ino == named.st_ino) {
      char host[200] = "";
      gethostname(host, sizeof host - 1);
      int n = snprintf(holder, sizeof holder, "host %s, pid %d\n", host, (int)getpid());
      if (ftruncate(fd, 0) || pwrite(fd, holder, (size_t)n, 0) != n) {
        int saved = errno;
        close(fd);
        return corpus_fail(err, len, "%s: cannot write the lock file %s: %s", path, lock, strerror(saved));
      }
      *out = fd;
      held_add(fd);
      return 0;
    }
    close(fd); /* its writer removed that lock file as it closed: the next one is ours to take */
  }
  return corpus_fail(err, len, "%s: the lock file %s keeps being replaced", path, lock);
}

void corpus_lock_release(const char *path, int *fd)
{
  if (*fd < 0) return;
  char lock[1040];
  lock_path(path, lock, sizeof lock);
  unlink(lock);
  held_remove(*fd);
  close(*fd);
  *fd = -1;
}
