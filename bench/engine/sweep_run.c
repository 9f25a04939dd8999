/* sweep_run.c — running the task list over MPI. Every rank computes: each task runs in a forked child
 * (so a task that hangs is killed at -task_time_limit and one that crashes is a recorded status, never the
 * end of the sweep), and while its own child computes, rank 0's parent process dispatches: a worker asks
 * for tasks and gets a chunk of ids (sweep_schedule.h: guided self-scheduling, costliest first, chunks
 * shrinking as the sweep drains), sends each task's ledger line as the task finishes (the last one of a
 * chunk with its next request), and rank 0 writes every line to the ledger at once. A child runs up to
 * -task_batch tasks (sent one by one through a pipe), so short tasks need not pay a fork each; a task over
 * its limit or one that crashes takes only its child with it. With -task_fork 0 tasks run in-process (for
 * debuggers); then no time limit is enforced and rank 0 answers requests only between its tasks. A forked
 * child never calls MPI: it computes, writes its row to a pipe and _exits. */
#include "sweep_capture.h"
#include "sweep_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <petscsys.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { TAG_RESULT = 71, TAG_ASSIGN = 72, TAG_STOP = 73, TAG_CAPTURE_FAILED = 74 };

/* Assignments besides a chunk of task ids: no more tasks; and no more tasks after a TAG_STOP this worker
 * must take. An assignment is [count, id...] or [ASSIGN_DONE] or [ASSIGN_STOPPED]. */
enum { ASSIGN_DONE = -1, ASSIGN_STOPPED = -2 };

/* A worker's message to rank 0 starts with one of these: a request for tasks (with the ledger line of the
 * last task of its chunk after it, or nothing), or a finished task's ledger line alone. */
enum { MSG_REQUEST = 'Q', MSG_ROW = 'R' };

/* The process that launched this rank (mpirun's daemon, slurmstepd), recorded before MPI_Init; 0 for a
 * run started without a launcher, whose parent is a shell that may well exit first (nohup, &). When the
 * launcher is killed (kill -9 of mpirun, a cancelled job) nothing tells the ranks: without this check they
 * ran their tasks on and kept appending rows to a ledger that a new run might already be resuming. */
static pid_t launcher;

/* SIGINT or SIGTERM, once received while tasks run (0: none). The handler only records it: every loop
 * below looks at it between its waits (which the signal cuts short: no SA_RESTART). */
static volatile sig_atomic_t caught;
static int sigint_ignored; /* at start: a script's background job keeps ignoring Ctrl-C, as the shell meant */

void sweep_launcher_note(void)
{
  static const char *const launched[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"};
  for (size_t i = 0; i < sizeof launched / sizeof launched[0]; i++)
    if (getenv(launched[i])) launcher = getppid();
  struct sigaction old;
  sigint_ignored = sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler == SIG_IGN;
}

static int launcher_gone(void) { return launcher > 0 && getppid() != launcher; }

static void on_signal(int sig) { caught = sig; }

/* While tasks run, SIGINT and SIGTERM stop the run instead of ending the process (or, under PETSc's
 * handler, aborting the job): the running tasks get interrupted rows, so -resume redoes them. Before, the
 * set-up's handler ends the process (sweep_signals.c); after (the tables: written through temporary
 * files), the handlers the process started with act as they did. */
static void catch_signals(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, NULL);
  if (!sigint_ignored) sigaction(SIGINT, &sa, NULL);
}

/* This rank's task process. With forking, a child runs up to -task_batch tasks one after the other: the
 * parent writes a task id to it and reads back the task's row as one frame (its length, then the bytes).
 * A child that is killed (time limit) or dies ends only its own task; the next task forks a fresh one. */
struct running {
  pid_t pid;    /* the child; 0 when there is none */
  int to, from; /* task ids to the child; framed rows from it */
  int served;   /* tasks this child was given */
  int busy;     /* a task is in flight */
  long id;
  double t0;
  char *buf;
  size_t len, cap;
};

/* In the child: undo what the parent's runtime installed that must not act here. PETSc's signal handler
 * would call MPI_Abort on a crash (taking the whole job down); its default error handler may abort too. */
static void child_reset(void)
{
  const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, SIGTERM, SIGINT};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    signal(sigs[i], SIG_DFL);
  if (sigint_ignored) signal(SIGINT, SIG_IGN); /* as the run itself: Ctrl-C was not meant for it */
  PetscPushErrorHandler(PetscReturnErrorHandler, NULL);
  prctl(PR_SET_PDEATHSIG, SIGKILL); /* an orphaned task (parent killed, e.g. scancel) must not run on */
}

static int write_all(int fd, const char *p, size_t n)
{
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return 1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

static int read_all(int fd, char *p, size_t n)
{
  while (n > 0) {
    ssize_t got = read(fd, p, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return 1;
    p += got;
    n -= (size_t)got;
  }
  return 0;
}

/* The child: runs the task ids it is sent until its input closes (or a task gives no row: exit 3). */
static void child_loop(const struct sweep *s, int in, int out)
{
  long id;
  while (!read_all(in, (char *)&id, sizeof id)) {
    char *frag = sweep_task_execute(s, id);
    uint64_t n = frag ? strlen(frag) : 0;
    sweep_capture_task_end(); /* its captured problems out before its row */
    if (!frag || write_all(out, (const char *)&n, sizeof n) || write_all(out, frag, (size_t)n)) _exit(3);
    free(frag);
  }
  _exit(0);
}

static int fork_child(const struct sweep *s, struct running *r)
{
  int down[2], up[2], cap[2] = {-1, -1};
  fflush(stdout);
  fflush(stderr);
  if (pipe(down)) return 1;
  if (pipe(up)) {
    close(down[0]);
    close(down[1]);
    return 1;
  }
  if (sweep_capture_pipe(cap)) {
    close(down[0]), close(down[1]), close(up[0]), close(up[1]);
    return 1;
  }
  signal(SIGPIPE, SIG_IGN); /* a child that died between tasks: the write fails with EPIPE instead */
  pid_t pid = fork();
  if (pid < 0) {
    close(down[0]), close(down[1]), close(up[0]), close(up[1]);
    if (cap[0] >= 0) close(cap[0]), close(cap[1]);
    return 1;
  }
  if (pid == 0) {
    close(down[1]);
    close(up[0]);
    sweep_capture_child(cap);
    child_reset();
    child_loop(s, down[0], up[1]);
  }
  close(down[0]);
  close(up[1]);
  fcntl(up[0], F_SETFL, fcntl(up[0], F_GETFL) | O_NONBLOCK);
  sweep_capture_attach(cap);
  r->pid = pid;
  r->to = down[1];
  r->from = up[0];
  r->served = 0;
  return 0;
}

/* Closes the pipes and reaps the child (killed first when kill_it); its exit status. */
static int reap_child(struct running *r, int kill_it)
{
  int st = 0;
  if (!r->pid) return 0;
  if (kill_it) kill(r->pid, SIGKILL);
  close(r->to);
  close(r->from);
  while (waitpid(r->pid, &st, 0) < 0 && errno == EINTR) {
  }
  r->pid = 0;
  return st;
}

static int start_task(const struct sweep *s, long id, struct running *r)
{
  /* the clock starts before fork: on a loaded machine the child may run to completion before the parent
   * is scheduled again, and a clock read after fork then misses the whole task */
  r->t0 = MPI_Wtime();
  for (int attempt = 0; attempt < 2; attempt++) {
    if (!r->pid && fork_child(s, r)) return 1;
    if (!write_all(r->to, (const char *)&id, sizeof id)) {
      r->served++;
      r->busy = 1;
      r->id = id;
      r->len = 0;
      return 0;
    }
    reap_child(r, 1); /* it died between tasks: a fresh one */
  }
  return 1;
}

/* Number of comma-separated fields. */
static int count_fields(const char *p)
{
  int n = 1;
  for (; *p; p++)
    n += *p == ',';
  return n;
}

/* The task in flight has ended (row == 1: its frame arrived; else the child was killed or died); returns
 * its ledger line (malloc'd). A child that has run -task_batch tasks, or failed, is retired. */
static char *finish_task(const struct sweep *s, struct running *r, int row, int killed)
{
  double secs = MPI_Wtime() - r->t0;
  const char *status = NULL;
  char *frag = NULL;
  if (row) {
    r->buf[r->len] = '\0';
    frag = r->buf + sizeof(uint64_t);
    if (frag[0] == SWEEP_WRITE_FAILED) { /* not a row: the run stops (record) */
      char *msg = strdup(frag);
      reap_child(r, 0);
      r->busy = 0;
      return msg;
    }
    if (count_fields(frag) != s->d->n_columns + 1) {
      status = "error";
      frag = NULL;
      fprintf(stderr, "[%s] task %ld: malformed row\n", s->d->experiment, r->id);
    }
    if (r->served >= s->task_batch) reap_child(r, 0); /* its input closes: it exits */
  } else {
    int st = reap_child(r, killed);
    if (killed) {
      status = "time_limit";
      fprintf(stderr, "[%s] task %ld: over the %g s limit, killed\n", s->d->experiment, r->id, s->time_limit);
    } else if (WIFSIGNALED(st) && (WTERMSIG(st) == SIGINT || WTERMSIG(st) == SIGTERM)) {
      status = SWEEP_INTERRUPTED; /* Ctrl-C reaches the task's process too: not a crash of the task */
      fprintf(stderr, "[%s] task %ld: interrupted (%s)\n", s->d->experiment, r->id, strsignal(WTERMSIG(st)));
    } else if (WIFSIGNALED(st)) {
      status = "crashed";
      fprintf(stderr, "[%s] task %ld: crashed (signal %d, %s)\n", s->d->experiment, r->id, WTERMSIG(st),
              strsignal(WTERMSIG(st)));
    } else {
      status = "error";
      fprintf(stderr, "[%s] task %ld: no result (exit status %d)\n", s->d->experiment, r->id,
              WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    }
  }
  char *line = sweep_ledger_line(s, r->id, frag, status, secs);
  r->busy = 0;
  return line;
}

/* Waits up to timeout_ms for the task in flight; returns its ledger line when it has ended, NULL otherwise.
 */
static char *poll_task(const struct sweep *s, struct running *r, int timeout_ms)
{
  struct pollfd pfd = {r->from, POLLIN, 0};
  if (s->time_limit > 0.0) {
    double left = s->time_limit - (MPI_Wtime() - r->t0);
    if (left <= 0.0) return finish_task(s, r, 0, 1);
    if (timeout_ms < 0 || left * 1000.0 < timeout_ms) timeout_ms = (int)(left * 1000.0) + 1;
  }
  int n = poll(&pfd, 1, timeout_ms);
  if (n <= 0) return NULL;
  for (;;) {
    if (r->cap - r->len < 4096) {
      size_t cap = r->cap ? 2 * r->cap : 65536;
      char *b = realloc(r->buf, cap);
      if (!b) break;
      r->buf = b;
      r->cap = cap;
    }
    ssize_t got = read(r->from, r->buf + r->len, r->cap - r->len - 1);
    if (got > 0) {
      r->len += (size_t)got;
      uint64_t want;
      if (r->len >= sizeof want) {
        memcpy(&want, r->buf, sizeof want);
        if (r->len >= sizeof want + want) return finish_task(s, r, 1, 0); /* the whole row */
      }
      continue;
    }
    if (got == 0) return finish_task(s, r, 0, 0); /* end of file before the row: the child died */
    if (errno == EINTR) continue;
    break; /* EAGAIN: more later */
  }
  return NULL;
}

/* Kills and reaps the child: the row of its task in flight is not wanted (the run is stopping). */
static void drop_task(struct running *r)
{
  if (!r) return;
  reap_child(r, 1);
  r->busy = 0;
}

/* The run stops while task r runs: its child is killed and the task gets an interrupted row. */
static char *interrupt_task(const struct sweep *s, struct running *r)
{
  double secs = MPI_Wtime() - r->t0;
  drop_task(r);
  return sweep_ledger_line(s, r->id, NULL, SWEEP_INTERRUPTED, secs);
}

/* The launcher is gone: MPI can no longer be trusted to finish (MPI_Finalize may wait forever), so this
 * rank ends here, its task killed and no row written. Every ledger row already written is whole. */
static void abandon(const struct sweep *s, struct running *r)
{
  drop_task(r);
  fprintf(stderr, "[%s] rank %d: the launcher (pid %d) is gone; stopping without writing more rows\n",
          s->d->experiment, s->rank, (int)launcher);
  _exit(1);
}

/* A worker asked to stop (rank 0 could not write the ledger): takes the TAG_STOP message if it is there. */
static int stop_arrived(const struct sweep *s)
{
  int flag = 0;
  if (s->rank == 0) return 0;
  MPI_Iprobe(0, TAG_STOP, s->comm, &flag, MPI_STATUS_IGNORE);
  if (flag) {
    long dummy;
    MPI_Recv(&dummy, 1, MPI_LONG, 0, TAG_STOP, s->comm, MPI_STATUS_IGNORE);
  }
  return flag;
}

/* Runs task id to completion on this rank (forked or in-process) and returns its ledger line; an interrupted
 * one when a signal came or the run was stopped meanwhile (*stopped: rank 0 said so). */
static char *run_blocking(const struct sweep *s, long id, struct running *r, int *stopped)
{
  if (caught) return sweep_ledger_line(s, id, NULL, SWEEP_INTERRUPTED, 0.0); /* not started */
  if (!s->use_fork) {
    double t0 = MPI_Wtime();
    char *frag = sweep_task_execute(s, id);
    if (frag && frag[0] == SWEEP_WRITE_FAILED) return frag; /* not a row: the run stops (record), as forked */
    char *line = sweep_ledger_line(s, id, frag, frag ? NULL : "error", MPI_Wtime() - t0);
    free(frag);
    return line;
  }
  if (start_task(s, id, r)) return sweep_ledger_line(s, id, NULL, "error", 0.0);
  char *line;
  while (!(line = poll_task(s, r, 200))) {
    if (launcher_gone()) abandon(s, r);
    if (stop_arrived(s)) *stopped = 1;
    if (*stopped || caught) return interrupt_task(s, r);
  }
  return line;
}

/* The run stops (rank 0): the first reason is kept. */
static void stop_run(struct sweep *s, int why, const char *text)
{
  if (s->stop) return;
  s->stop = why;
  snprintf(s->stop_why, sizeof s->stop_why, "%s", text);
}

/* The run stops on a signal: this process's own names it (and the exit status); without one, a task was
 * interrupted by a signal that reached its process alone, or another rank's. */
static void stop_on_signal(struct sweep *s)
{
  char why[64];
  if (s->stop) return;
  if (!caught) {
    stop_run(s, SWEEP_STOP_SIGNAL, "a task was interrupted");
    return;
  }
  snprintf(why, sizeof why, "interrupted by %s", caught == SIGINT ? "SIGINT" : "SIGTERM");
  stop_run(s, SWEEP_STOP_SIGNAL, why);
  s->signal = caught;
}

/* Rank 0 takes a finished line: ledger, tallies, progress. A write failure (the ledger's, or a task's
 * SWEEP_WRITE_FAILED message) and an interrupted task stop the run; an interrupted row is written but not
 * counted as done. Once the ledger fails no more lines are taken. */
static void record(struct sweep *s, char *line)
{
  if (!line) return;
  if (line[0] == SWEEP_WRITE_FAILED) {
    stop_run(s, SWEEP_STOP_WRITE, line + 1);
    free(line);
    return;
  }
  char why[sizeof s->stop_why];
  double t0 = MPI_Wtime();
  int bad = s->ledger_failed || sweep_ledger_append(s, line, why, sizeof why);
  s->ledger_seconds += MPI_Wtime() - t0;
  if (bad) {
    if (!s->ledger_failed) stop_run(s, SWEEP_STOP_WRITE, why);
    s->ledger_failed = 1;
    free(line);
    return;
  }
  /* status is field 1 + n_axes; task_seconds is the third field from the end */
  int field = 0, status_field = 1 + s->d->n_axes;
  const char *p = line, *status = NULL;
  for (; *p; p++)
    if (*p == ',' && ++field == status_field) status = p + 1;
  char st[64] = "";
  if (status) snprintf(st, sizeof st, "%.*s", (int)strcspn(status, ","), status);
  if (strcmp(st, SWEEP_INTERRUPTED) == 0) {
    stop_on_signal(s);
    free(line);
    return;
  }
  const char *q = line + strlen(line);
  int commas = 0;
  while (q > line && commas < 3)
    if (*--q == ',') commas++;
  double secs = strtod(q + 1, NULL);
  s->n_done++;
  if (sweep_status_is_failure(st)) s->n_failed++;
  s->task_seconds_sum += secs;
  if (secs > s->task_seconds_max) s->task_seconds_max = secs;
  free(line);
  sweep_progress(s, 0);
}

static void sleep_ms(int ms)
{
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* Once the run stops: no task is handed out again, rank 0's own gets an interrupted row, and every worker
 * that holds a task is told to end it so (TAG_STOP; its next assignment is then ASSIGN_STOPPED). */
static void stop_all(struct sweep *s, struct running *own, long *next, char *busy_worker)
{
  *next = s->n_todo;
  if (own->busy) record(s, interrupt_task(s, own));
  for (int w = 1; w < s->size; w++)
    if (busy_worker[w]) {
      long stop = 1;
      MPI_Send(&stop, 1, MPI_LONG, w, TAG_STOP, s->comm);
      busy_worker[w] = 2;
    }
}

/* Rank 0: a rank's -cp_capture writes have failed (its own, or a worker's TAG_CAPTURE_FAILED, each taken;
 * the capture printed what failed): the run stops as for any failed write of the run, since the corpus it
 * owes is not whole. */
static const char capture_stop[] = "-cp_capture: a write of the captured problems failed (see above)";

static void check_capture(struct sweep *s)
{
  int failed = sweep_capture_failed();
  for (int flag = 1; flag;) {
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, TAG_CAPTURE_FAILED, s->comm, &flag, &st);
    if (flag) {
      long dummy;
      MPI_Recv(&dummy, 1, MPI_LONG, st.MPI_SOURCE, TAG_CAPTURE_FAILED, s->comm, MPI_STATUS_IGNORE);
      failed = 1;
    }
  }
  if (failed) stop_run(s, SWEEP_STOP_WRITE, capture_stop);
}

/* A worker: tells rank 0 once that its -cp_capture writes have failed. */
static void report_capture_failure(const struct sweep *s, int *reported)
{
  if (*reported || !sweep_capture_failed()) return;
  long one = 1;
  MPI_Send(&one, 1, MPI_LONG, 0, TAG_CAPTURE_FAILED, s->comm);
  *reported = 1;
}

/* Answers worker w's request: the next chunk of the work list, or that there is none (ASSIGN_STOPPED to
 * a worker told to stop). */
static void assign(struct sweep *s, int w, long *next, int *workers, char *busy_worker)
{
  long k = sweep_schedule_chunk(&s->sched, *next), *msg = malloc(((size_t)k + 1) * sizeof *msg);
  if (!msg) k = 0; /* out of memory: this worker is done; the others and -resume finish the list */
  long head = k > 0 ? k : busy_worker[w] == 2 ? ASSIGN_STOPPED : ASSIGN_DONE;
  if (msg) msg[0] = head;
  for (long i = 0; i < k; i++)
    msg[1 + i] = s->todo[(*next)++];
  if (head < 0) (*workers)--;
  busy_worker[w] = head > 0;
  MPI_Send(msg ? msg : &head, (int)(k + 1), MPI_LONG, w, TAG_ASSIGN, s->comm);
  free(msg);
}

/* Takes one worker message (st: its probe): records its ledger line, and answers a request. */
static void take_message(struct sweep *s, MPI_Status *st, long *next, int *workers, char *busy_worker,
                         struct running *own, int *stopping)
{
  int len = 0;
  MPI_Get_count(st, MPI_CHAR, &len);
  char *line = malloc((size_t)len + 1);
  MPI_Recv(line, len, MPI_CHAR, st->MPI_SOURCE, TAG_RESULT, s->comm, MPI_STATUS_IGNORE);
  line[len] = '\0';
  const int request = len > 0 && line[0] == MSG_REQUEST;
  memmove(line, line + 1, (size_t)len); /* the ledger line after the kind */
  if (line[0])
    record(s, line);
  else
    free(line);
  check_capture(s);
  if (s->stop && !*stopping) {
    stop_all(s, own, next, busy_worker);
    *stopping = 1;
  }
  if (request) assign(s, st->MPI_SOURCE, next, workers, busy_worker);
}

static int run_master(struct sweep *s)
{
  struct running own = {0};
  long next = 0;
  int workers = s->size - 1, stopping = 0, stopped = 0;
  char *busy_worker = calloc((size_t)s->size, 1); /* 1: holds a task; 2: told to stop */
  if (!busy_worker) return 1;
  while (next < s->n_todo || own.busy || workers > 0) {
    int busy = 0;
    if (launcher_gone()) abandon(s, &own);
    check_capture(s);
    if (caught) stop_on_signal(s);
    if (s->stop && !stopping) {
      stop_all(s, &own, &next, busy_worker);
      stopping = 1;
    }
    if (!own.busy && next < s->n_todo) {
      long id = s->todo[next++];
      if (!s->use_fork)
        record(s, run_blocking(s, id, &own, &stopped));
      else if (start_task(s, id, &own))
        record(s, sweep_ledger_line(s, id, NULL, "error", 0.0));
      busy = 1;
    }
    if (own.busy) {
      char *line = poll_task(s, &own, workers > 0 ? 2 : 50);
      if (line) record(s, line), busy = 1;
    }
    for (;;) { /* take every worker's message */
      int flag = 0;
      MPI_Status st;
      MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULT, s->comm, &flag, &st);
      if (!flag) break;
      take_message(s, &st, &next, &workers, busy_worker, &own, &stopping);
      busy = 1;
    }
    if (!busy && !own.busy) sleep_ms(2);
  }
  reap_child(&own, 0); /* its input closes: it exits */
  free(own.buf);
  free(busy_worker);
  check_capture(s); /* a worker's last word */
  return s->stop;
}

/* Waits for rank 0's answer, watching the launcher (a blocking receive would wait forever without it):
 * the number of task ids it put in ids (room for s->task_chunk), or ASSIGN_DONE / ASSIGN_STOPPED. */
static long wait_assignment(const struct sweep *s, long *msg)
{
  MPI_Status st;
  for (int arrived = 0, spins = 0;;) {
    MPI_Iprobe(0, TAG_ASSIGN, s->comm, &arrived, &st);
    if (arrived) break;
    if (launcher_gone()) abandon(s, NULL);
    if (++spins > 100) sleep_ms(1); /* answers usually come at once; a waiting worker need not spin */
  }
  int n = 0;
  MPI_Get_count(&st, MPI_LONG, &n);
  msg[0] = ASSIGN_DONE;
  MPI_Recv(msg, n, MPI_LONG, 0, TAG_ASSIGN, s->comm, MPI_STATUS_IGNORE);
  return msg[0];
}

/* Sends rank 0 a message of this kind with a ledger line (NULL: none), and frees the line. */
static void send_line(const struct sweep *s, int kind, char *line, int *reported)
{
  report_capture_failure(s, reported); /* before the message: rank 0 takes it first */
  size_t n = line ? strlen(line) : 0;
  char *msg = malloc(n + 2);
  if (msg) {
    msg[0] = (char)kind;
    memcpy(msg + 1, line ? line : "", n + 1);
  }
  char fallback[2] = {(char)kind, '\0'}; /* out of memory: the request still goes (the row is lost) */
  MPI_Send(msg ? msg : fallback, msg ? (int)(n + 1) : 1, MPI_CHAR, 0, TAG_RESULT, s->comm);
  free(msg);
  free(line);
}

static int run_worker(struct sweep *s)
{
  struct running r = {0};
  char *line = NULL;
  int stopped = 0, reported = 0;
  long *ids = malloc(((size_t)s->task_chunk + 1) * sizeof *ids);
  if (!ids) return 1;
  for (;;) {
    send_line(s, MSG_REQUEST, line, &reported); /* with the last row of the chunk before */
    line = NULL;
    long n = wait_assignment(s, ids);
    if (n == ASSIGN_STOPPED && !stopped) { /* the stop came after this worker's task had finished */
      long dummy;
      MPI_Recv(&dummy, 1, MPI_LONG, 0, TAG_STOP, s->comm, MPI_STATUS_IGNORE);
    }
    if (n < 0) break;
    for (long i = 0; i < n && !stopped; i++) {
      if (line) send_line(s, MSG_ROW, line, &reported), line = NULL; /* each row as its task ends */
      if (stop_arrived(s)) stopped = 1; /* the rest of the chunk is not run: -resume does it */
      if (stopped) break;
      line = run_blocking(s, ids[1 + i], &r, &stopped);
      if (!line) line = sweep_ledger_line(s, ids[1 + i], NULL, "error", 0.0);
    }
  }
  reap_child(&r, 0);
  free(r.buf);
  free(ids);
  return 0;
}

int sweep_run(struct sweep *s)
{
  s->t_start = MPI_Wtime();
  catch_signals();
  int rc = s->rank == 0 ? run_master(s) : run_worker(s);
  /* the last batch, on any rank, may fail too */
  int capture_bad = sweep_capture_close();
  MPI_Allreduce(MPI_IN_PLACE, &capture_bad, 1, MPI_INT, MPI_MAX, s->comm);
  if (capture_bad && s->rank == 0) stop_run(s, SWEEP_STOP_WRITE, capture_stop);
  sweep_signals_restore();
  s->t_end = MPI_Wtime();
  return s->rank == 0 ? s->stop : rc;
}
