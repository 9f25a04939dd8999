/* corpus_check.c — a corpus read through once in a child process before the caller touches it with libhdf5
 * (corpus_impl.h). libhdf5 trusts what it reads: single flipped bytes in a corpus have made it divide by
 * zero (SIGFPE), follow a wild pointer (SIGSEGV) and loop for ever. The child opens the file, reads and
 * checks the problem table (corpus_table.c) and then every problem's data, with the calls the caller makes
 * later, and sends the checked table back through a pipe. A child killed by a signal, past its time limit or
 * out of its memory limit becomes a message here, and the caller goes on to read only what the child has read
 * without harm: the same bytes through the same code. */
#include "corpus_impl.h"
#include "corpus_lock.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The child's limits: seconds (CORPUS_CHECK_SECONDS plus one per CORPUS_CHECK_BYTES_PER_SECOND of file,
 * unless corpus_set_check_limit gave another) and address space beyond what it inherits (a fixed part plus
 * twice the file: no legitimate read needs more than one copy of the file's data at a time). */
#define CORPUS_CHECK_SECONDS          30.0
#define CORPUS_CHECK_BYTES_PER_SECOND (10.0 * 1024 * 1024)
#define CORPUS_CHECK_MEMORY           (1024.0 * 1024 * 1024)

static double check_limit;

void corpus_set_check_limit(double seconds) { check_limit = seconds; }

struct head {
  int32_t rc, version, n;
  int64_t n_values, n_indices, n_text, uncommitted;
  char err[512];
};

static double monotonic_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Reads n bytes before the deadline (monotonic_seconds): 0; 1 at end of file or error; 2 past it. */
static int read_until(int fd, void *buf, size_t n, double deadline)
{
  char *p = buf;
  while (n > 0) {
    const double left = deadline - monotonic_seconds();
    if (left <= 0) return 2;
    struct pollfd pfd = {fd, POLLIN, 0};
    if (poll(&pfd, 1, (int)(left * 1000) + 1) <= 0) continue; /* the deadline, or a signal */
    const ssize_t got = read(fd, p, n);
    if (got == 0 || (got < 0 && errno != EINTR)) return 1;
    p += got > 0 ? got : 0;
    n -= got > 0 ? (size_t)got : 0;
  }
  return 0;
}

/* Every problem's data read as the caller would read it, and checked (c->why). */
static void check_data(struct corpus *c)
{
  char err[512];
  for (int i = 0; i < c->n; i++) {
    const struct corpus_meta *m = &c->meta[i];
    if (c->why[i][0] || !m->captured) continue;
    struct cp_problem *p = NULL;
    struct corpus_callback cb = {0};
    int bad = m->captured == 1 ? corpus_read(c, i, &p, err, sizeof err)
                               : corpus_read_callback(c, i, &cb, err, sizeof err);
    if (bad) {
      const size_t k = strlen(m->name);
      snprintf(c->why[i], CORPUS_WHY, "%.190s",
               strncmp(err, m->name, k) == 0 && err[k] == ':' ? err + k + 2 : err);
    } else if (p) {
      corpus_check_linear(p, c->why[i], CORPUS_WHY);
    } else {
      corpus_check_callback(&cb, m->n, c->why[i], CORPUS_WHY);
    }
    cp_destroy(&p);
    corpus_callback_free(&cb);
  }
}

/* The child: its own signal dispositions (not the parent's runtime's, which might act on a crash here),
 * its limits, the whole read, the table down the pipe. */
static void child(const char *path, int fd, off_t size, double seconds)
{
  const int sigs[] = {SIGSEGV, SIGBUS,  SIGFPE, SIGILL,  SIGABRT, SIGTRAP,
                      SIGSYS,  SIGTERM, SIGINT, SIGALRM, SIGPIPE};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    signal(sigs[i], SIG_DFL);
  alarm((unsigned)seconds + 5);  /* also when the parent is gone */
  corpus_lock_close_inherited(); /* a writer's lock must go with the writer */
  long pages = 0, page = sysconf(_SC_PAGESIZE);
  FILE *fp = fopen("/proc/self/statm", "r");
  if (fp && fscanf(fp, "%ld", &pages) == 1 && page > 0) {
    double cap = (double)pages * (double)page + CORPUS_CHECK_MEMORY + 2.0 * (double)size;
    struct rlimit rl = {(rlim_t)cap, (rlim_t)cap};
    setrlimit(RLIMIT_AS, &rl);
  }
  if (fp) fclose(fp);
  struct corpus *c = NULL;
  struct head h = {0};
  h.rc = corpus_open_here(path, &c, h.err, sizeof h.err);
  if (!h.rc) {
    check_data(c);
    corpus_table_check_across(c);
    h.version = c->version;
    h.n = c->n;
    h.n_values = (int64_t)c->n_values, h.n_indices = (int64_t)c->n_indices, h.n_text = (int64_t)c->n_text;
    h.uncommitted = c->uncommitted;
  }
  FILE *out = fdopen(fd, "wb");
  int bad = !out || fwrite(&h, sizeof h, 1, out) != 1;
  if (c && !bad) {
    const size_t n = (size_t)c->n;
    bad = fwrite(c->meta, sizeof *c->meta, n, out) != n ||
          (c->version >= 2 && fwrite(c->at, sizeof *c->at, n, out) != n) ||
          fwrite(c->why, sizeof *c->why, n, out) != n;
  }
  if (out && fclose(out)) bad = 1;
  _exit(bad); /* no atexit handlers: libhdf5's would close the parent's files from here */
}

/* The child's table into c (the sizes were checked there; n is bounded by the file once more). */
static int take_table(struct corpus *c, int fd, double deadline, off_t size, char *err, size_t len,
                      const char *path)
{
  struct head h;
  int rc = read_until(fd, &h, sizeof h, deadline);
  if (rc) return rc;
  h.err[sizeof h.err - 1] = '\0';
  if (h.rc) return corpus_fail(err, len, "%s", h.err), 3;
  if (h.n < 0 || (double)h.n * 64.0 > (double)size || h.version < 1 || h.version > CORPUS_SCHEMA_VERSION)
    return corpus_fail(err, len, "%s: the reader process sent a bad table", path), 3;
  c->version = h.version;
  c->n = h.n;
  c->n_values = (hsize_t)h.n_values, c->n_indices = (hsize_t)h.n_indices, c->n_text = (hsize_t)h.n_text;
  c->uncommitted = (long)h.uncommitted;
  c->file_size = size;
  c->meta = calloc((size_t)h.n + 1, sizeof *c->meta);
  c->at = calloc((size_t)h.n + 1, sizeof *c->at);
  c->why = calloc((size_t)h.n + 1, sizeof *c->why);
  if (!c->meta || !c->at || !c->why) return corpus_fail(err, len, "out of memory"), 3;
  rc = read_until(fd, c->meta, (size_t)h.n * sizeof *c->meta, deadline);
  if (!rc && h.version >= 2) rc = read_until(fd, c->at, (size_t)h.n * sizeof *c->at, deadline);
  if (!rc) rc = read_until(fd, c->why, (size_t)h.n * sizeof *c->why, deadline);
  for (int i = 0; i < h.n && !rc; i++)
    c->meta[i].name[sizeof c->meta[i].name - 1] = c->why[i][CORPUS_WHY - 1] = '\0';
  return rc;
}

int corpus_check_file(const char *path, struct corpus *c, char *err, size_t len)
{
  struct stat st;
  if (stat(path, &st) != 0 || access(path, R_OK) != 0)
    return corpus_fail(err, len, "%s: cannot read the file", path);
  const double seconds = check_limit > 0
                             ? check_limit
                             : CORPUS_CHECK_SECONDS + (double)st.st_size / CORPUS_CHECK_BYTES_PER_SECOND;
  int fds[2];
  if (pipe(fds))
    return corpus_fail(err, len, "%s: cannot start its reader process: %s", path, strerror(errno));
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]), close(fds[1]);
    return corpus_fail(err, len, "%s: cannot start its reader process: %s", path, strerror(errno));
  }
  if (pid == 0) {
    close(fds[0]);
    child(path, fds[1], st.st_size, seconds);
  }
  close(fds[1]);
  const double deadline = monotonic_seconds() + seconds;
  int rc = take_table(c, fds[0], deadline, st.st_size, err, len, path);
  close(fds[0]);
  if (rc == 2) kill(pid, SIGKILL);
  int ws = 0;
  while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
  }
  if (rc == 2)
    return corpus_fail(err, len, "%s: HDF5 did not finish reading it in %.0f s (corrupt?)", path, seconds);
  if (WIFSIGNALED(ws))
    return corpus_fail(err, len,
                       "%s: reading it crashed the HDF5 library (signal %d, %s): the file is corrupt", path,
                       WTERMSIG(ws), strsignal(WTERMSIG(ws)));
  if (rc == 1 || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
    return corpus_fail(err, len, "%s: its reader process failed (exit status %d)", path,
                       WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
  return rc != 0;
}
