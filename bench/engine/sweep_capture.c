/* sweep_capture.c — the run's captured problems into one corpus writer per rank (sweep_capture.h).
 *
 * Why a writer process: each forked task used to open, fill and close the HDF5 file itself, 5-10 ms of a
 * short task (library state and fresh buffers touched after fork: page faults, ~30 us each on this VM).
 * Moving the writer into the rank's process did not help: after every fork its pages are shared
 * copy-on-write with the new task, so the writer's next writes fault again (753 faults, 24 ms for the
 * 375 problems of a box-of-polygons run). A process that never forks keeps its pages: the rank starts one
 * before its first task; every task gets a pipe of its own, whose read end the rank hands over a socket
 * (SCM_RIGHTS), so a task killed mid-problem cuts only its own stream (the partial problem is dropped at
 * its end of file). The writer drains every pipe, and at the end of the run (the socket closes: also when
 * the rank is killed) it writes the last batch and closes the file.
 *
 * The file is opened before the first task (a file another writer holds, or one that is damaged, stops the
 * run before it starts), and a write that fails (a full disk) stops the run: the writer process sends a
 * byte back on the socket, the rank sees it between tasks (sweep_capture_failed). */
#define _GNU_SOURCE /* SCM_RIGHTS, F_SETPIPE_SZ */
#include "sweep_capture.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static struct {
  struct corpus_writer *w;
  struct corpus_stream_out out; /* in a forked task: its pipe to the writer (fd -1 otherwise) */
  int ctl;                      /* in the rank: the socket to the writer process; -1 */
  pid_t writer;                 /* in the rank: the writer process; 0 */
  int closed;    /* no more problems this run: the file is full (-cp_capture_max), or writing failed */
  int failed;    /* writing failed (or the writer process is gone): the run stops */
  int report;    /* in the writer process: the socket on which the rank learns of a failure; -1 */
  long bad_task; /* a problem of this task was refused (e.g. its name is already in the file on -resume):
                    its later problems are not offered either */
} cap = {.out = {.fd = -1}, .ctl = -1, .report = -1, .bad_task = -1};

/* A write failed: no more problems, and the rank hears of it (one byte on the socket from the writer
 * process) so that it stops the run. */
static void fail(const char *err)
{
  fprintf(stderr, "error: -cp_capture: %s; the run stops\n", err);
  cap.closed = cap.failed = 1;
  if (cap.report >= 0) {
    char byte = 'F';
    while (send(cap.report, &byte, 1, MSG_NOSIGNAL) < 0 && errno == EINTR) {
    }
  }
}

/* Adds p to this process's writer. 0, or 1: none more from this task. */
static int add_here(const struct sweep_capture *set, const struct cp_problem *p, const struct corpus_meta *m,
                    const struct corpus_callback *cb)
{
  char err[1024];
  if (cap.closed || !cap.w || m->task_id == cap.bad_task) return 1;
  int rc = corpus_writer_add_callback(cap.w, p, m, cb, set->max, err, sizeof err);
  if (rc == 3) cap.closed = 1; /* -cp_capture_max: the file is full */
  if (rc == 1 && corpus_writer_failed(cap.w)) {
    fail(err);
  } else if (rc == 1) {
    fprintf(stderr, "warning: -cp_capture: %s; no more problems from task %ld\n", err, m->task_id);
    cap.bad_task = m->task_id;
  }
  return rc != 0;
}

static int close_writer(void)
{
  char err[1024];
  if (!cap.w) return cap.failed;
  if (corpus_writer_close(&cap.w, err, sizeof err) && !cap.failed) fail(err);
  return cap.failed;
}

/* ---- the writer process ---- */

#define MAX_STREAMS 64 /* tasks whose pipes are open at once (one at a time per rank; killed ones linger) */

struct source {
  int fd;
  struct corpus_stream s;
};

static int sink(void *ctx, const struct cp_problem *p, const struct corpus_meta *m,
                const struct corpus_callback *cb)
{
  add_here(ctx, p, m, cb);
  return 0; /* read on: a refused task's later problems are dropped one by one, its pipe must not fill */
}

/* A read end handed over the socket: 1 with *fd, 0 at the socket's end (the run is over), -1 on error. */
static int receive_fd(int sock, int *fd)
{
  char byte, ctrl[CMSG_SPACE(sizeof(int))];
  struct iovec iov = {&byte, 1};
  struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctrl, .msg_controllen = sizeof ctrl};
  ssize_t got;
  while ((got = recvmsg(sock, &msg, 0)) < 0 && errno == EINTR) {
  }
  if (got <= 0) return got == 0 ? 0 : -1;
  struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
  if (!c || c->cmsg_type != SCM_RIGHTS) return -1;
  memcpy(fd, CMSG_DATA(c), sizeof *fd);
  return 1;
}

/* Reads every source until the socket closes and every pipe has ended. */
static void writer_loop(const struct sweep_capture *set, int sock)
{
  struct source src[MAX_STREAMS];
  int n = 0, sock_open = 1;
  while (sock_open || n > 0) {
    struct pollfd pfd[MAX_STREAMS + 1];
    for (int i = 0; i < n; i++)
      pfd[i] = (struct pollfd){src[i].fd, POLLIN, 0};
    pfd[n] = (struct pollfd){sock, POLLIN, 0};
    const nfds_t npfd = (nfds_t)n + (nfds_t)sock_open;
    if (poll(pfd, npfd, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = n - 1; i >= 0; i--) {
      if (!pfd[i].revents) continue;
      int rc = corpus_stream_take(&src[i].s, src[i].fd, sink, (void *)set);
      if (rc == 2) {
        fprintf(stderr, "warning: -cp_capture: a malformed problem record; that task's others are dropped\n");
        src[i].s.len = 0;
        rc = 1;
      }
      if (rc == 1) { /* the task's end: a partial problem is dropped */
        close(src[i].fd);
        corpus_stream_free(&src[i].s);
        src[i] = src[--n];
      }
    }
    if (sock_open && pfd[n].revents) {
      int fd = -1, rc = receive_fd(sock, &fd);
      if (rc <= 0)
        sock_open = 0;
      else if (n == MAX_STREAMS)
        close(fd); /* the task's writes then fail: it stops capturing (cannot happen one task at a time) */
      else
        src[n++] = (struct source){.fd = fd};
    }
  }
  close_writer();
}

/* The opening's outcome, from the writer process to the rank: a status byte, then the message. */
struct opened {
  char failed;
  char err[1024];
};

/* The writer process: its file opened (the outcome sent back at once), then every problem the tasks send. */
static void writer_process(const struct sweep_capture *set, int sock)
{
  /* no MPI, no PETSc here: their handlers must not act in this process; a Ctrl-C of the run still
   * stops it (the batch being filled is lost, the file stays readable) */
  const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, SIGTERM, SIGINT};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    signal(sigs[i], SIG_DFL);
  struct opened o = {0};
  o.failed = (char)corpus_writer_open(set->path, &cap.w, o.err, sizeof o.err);
  if (write(sock, &o, sizeof o) != (ssize_t)sizeof o || o.failed) _exit(1);
  cap.report = sock;
  writer_loop(set, sock);
  _exit(cap.failed);
}

int sweep_capture_start(const struct sweep_capture *set, int forked, char *err, size_t len)
{
  int sv[2];
  if (!set->path[0]) return 0;
  if (!forked) return corpus_writer_open(set->path, &cap.w, err, len);
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
    return snprintf(err, len, "cannot start the writer process: %s", strerror(errno)), 1;
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    close(sv[0]), close(sv[1]);
    return snprintf(err, len, "cannot start the writer process: %s", strerror(errno)), 1;
  }
  if (pid == 0) {
    close(sv[0]);
    writer_process(set, sv[1]);
  }
  close(sv[1]);
  struct opened o = {1, "the writer process ended before opening the file"};
  size_t got = 0;
  while (got < sizeof o) {
    ssize_t r = read(sv[0], (char *)&o + got, sizeof o - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += (size_t)r;
  }
  if (got < sizeof o || o.failed) {
    o.err[sizeof o.err - 1] = '\0';
    snprintf(err, len, "%s", got < sizeof o ? "the writer process ended before opening the file" : o.err);
    close(sv[0]);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
    return 1;
  }
  cap.ctl = sv[0];
  cap.writer = pid;
  return 0;
}

int sweep_capture_failed(void)
{
  if (!cap.failed && cap.ctl >= 0) {
    char byte;
    ssize_t got = recv(cap.ctl, &byte, 1, MSG_DONTWAIT);
    if (got == 0)
      fprintf(stderr, "error: -cp_capture: the writer process ended during the run; the run stops\n");
    cap.failed = got >= 0; /* its failure byte ('F', it has said why), or its end */
  }
  return cap.failed;
}

int sweep_capture_pipe(int fds[2])
{
  fds[0] = fds[1] = -1;
  if (cap.ctl < 0) return 0;
  if (pipe(fds)) return 1;
  fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  fcntl(fds[1], F_SETPIPE_SZ, 1 << 20); /* a task rarely waits for the writer; refused: the default 64 kB */
  return 0;
}

void sweep_capture_child(int fds[2])
{
  if (fds[0] < 0) return;
  close(fds[0]);
  close(cap.ctl); /* the writer ends when the rank's socket closes, not when the last task's does */
  cap.ctl = -1;
  cap.out.fd = fds[1];
}

void sweep_capture_attach(int fds[2])
{
  if (fds[0] < 0) return;
  char byte = 0, ctrl[CMSG_SPACE(sizeof(int))];
  memset(ctrl, 0, sizeof ctrl);
  struct iovec iov = {&byte, 1};
  struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctrl, .msg_controllen = sizeof ctrl};
  struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(c), &fds[0], sizeof(int));
  while (sendmsg(cap.ctl, &msg, 0) < 0 && errno == EINTR) {
  }
  /* a failed send leaves the task's pipe without a reader: its writes fail and it stops capturing */
  close(fds[0]);
  close(fds[1]);
}

int sweep_capture_task_end(void) { return cap.out.fd >= 0 ? corpus_stream_flush(&cap.out) : 0; }

int sweep_capture_add(const struct sweep_capture *set, const struct cp_problem *p,
                      const struct corpus_meta *m, const struct corpus_callback *cb)
{
  if (cap.out.fd < 0) return add_here(set, p, m, cb);
  return corpus_stream_put(&cap.out, p, m, cb); /* 1: the writer is gone */
}

int sweep_capture_close(void)
{
  if (cap.ctl < 0) return close_writer();
  close(cap.ctl); /* the writer drains what the tasks sent, writes its last batch and exits */
  cap.ctl = -1;
  int st = 0;
  while (waitpid(cap.writer, &st, 0) < 0 && errno == EINTR) {
  }
  cap.writer = 0;
  return cap.failed || !WIFEXITED(st) || WEXITSTATUS(st) != 0;
}
