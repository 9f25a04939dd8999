/* NAME    bench_schedule — predict a finished run's wall time on other rank counts.
 * PURPOSE replays the run's recorded per-task costs (tasks.csv task_seconds; a run whose tasks.csv was not
 *         kept: each task its group's mean, summary.csv task_seconds_total / count) through the engine's
 *         own dispatch (sweep_schedule.h: chunks by guided self-scheduling, at most -task_chunk) as an
 *         event simulation: rank 0 computes its own tasks one at a time while one dispatcher serves the
 *         messages in arrival order, -service seconds each (a request, or a finished task's ledger row);
 *         every message takes -latency seconds each way. Prints the predicted wall of the task loop, the
 *         schedule ratio wall / max(sum / ranks, longest task) and the parallel efficiency
 *         sum / (ranks x wall) per rank count, and the dispatcher's busy share.
 *         -measure (under mpirun -n 2): this machine's message latency (ping-pong) and service time (rank
 *         0 receiving rows and appending them to a file, as the ledger does), to pass as -latency/-service.
 * USAGE   bench_schedule RUN_DIR -ranks 64,256,1024 [-latency S] [-service S] [-task_chunk K]
 *         [-order id|cost]; mpirun -n 2 bench_schedule -measure
 * MODEL   forked tasks (the default -task_fork 1: rank 0's dispatcher runs while its own task does); the
 *         order is the task ids' (drivers without cost estimates) or, with -order cost, the recorded costs
 *         descending (a driver whose estimates were exact). Start-up and the tables after the tasks are not
 *         in it (bench-engine measures them). */
#include "engine/sweep_schedule.h"
#include "program.h"
#include "run_files.h"
#include "table.h"

#include <fcntl.h>
#include <math.h>
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct schedule_settings {
  char ranks[OPTION_STRING_MAX];
  double latency, service, overhead;
  int task_chunk, order, measure; /* order: 0 ids, 1 costs descending */
};

/* The defaults are this machine's (-measure on 2 ranks of a 2-core VM, Open MPI 4.1 shared memory). */
static const struct option_decl schedule_options[] = {
    {"ranks", OPT_STRING, offsetof(struct schedule_settings, ranks), "64,256,1024,4096", NULL,
     "rank counts to predict, a,b,..."},
    {"latency", OPT_REAL, offsetof(struct schedule_settings, latency), "3e-7", "[0,inf)",
     "one-way message latency [s]"},
    {"service", OPT_REAL, offsetof(struct schedule_settings, service), "1e-6", "[0,inf)",
     "dispatcher time per message: a request answered or a ledger row written [s]"},
    {"overhead", OPT_REAL, offsetof(struct schedule_settings, overhead), "0", "[0,inf)",
     "seconds a rank spends per task outside its recorded task_seconds (reaping the task's forked child); "
     "a one-rank run shows it: (meta.json wall_seconds - task_seconds_sum) / tasks [s]"},
    {"task_chunk", OPT_INT, offsetof(struct schedule_settings, task_chunk), "4", "[1,1000000]",
     "the engine's -task_chunk"},
    {"order", OPT_CHOICE, offsetof(struct schedule_settings, order), "id", "id|cost",
     "dispatch order: task ids, or recorded costs descending (costliest first, as with exact estimates)"},
    {"measure", OPT_BOOL, offsetof(struct schedule_settings, measure), "0", NULL,
     "measure -latency and -service here (mpirun -n 2) instead of predicting (a flag: takes no value)"},
};
#define N_SCHEDULE_OPTIONS ((int)(sizeof schedule_options / sizeof schedule_options[0]))

struct event {
  double t;
  int rank; /* who: the dispatcher's message from rank, or rank's task ending */
  int kind; /* EV_REQUEST, EV_ROW (a message reaching the dispatcher), EV_DONE (a task ending) */
  long seq; /* ties in time: first scheduled first */
};
enum { EV_REQUEST, EV_ROW, EV_DONE };

struct heap {
  struct event *e;
  long n, cap, seq;
};

static int before(const struct event *a, const struct event *b)
{
  return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static int heap_push(struct heap *h, double t, int rank, int kind)
{
  if (h->n == h->cap) {
    long cap = h->cap ? 2 * h->cap : 1024;
    struct event *e = realloc(h->e, (size_t)cap * sizeof *e);
    if (!e) return 1;
    h->e = e, h->cap = cap;
  }
  long i = h->n++;
  h->e[i] = (struct event){t, rank, kind, h->seq++};
  while (i > 0 && before(&h->e[i], &h->e[(i - 1) / 2])) {
    struct event x = h->e[i];
    h->e[i] = h->e[(i - 1) / 2], h->e[(i - 1) / 2] = x, i = (i - 1) / 2;
  }
  return 0;
}

static struct event heap_pop(struct heap *h)
{
  struct event top = h->e[0];
  h->e[0] = h->e[--h->n];
  for (long i = 0;;) {
    long l = 2 * i + 1, r = l + 1, m = i;
    if (l < h->n && before(&h->e[l], &h->e[m])) m = l;
    if (r < h->n && before(&h->e[r], &h->e[m])) m = r;
    if (m == i) break;
    struct event x = h->e[i];
    h->e[i] = h->e[m], h->e[m] = x, i = m;
  }
  return top;
}

struct sim {
  const double *cost; /* in dispatch order */
  double overhead;    /* per task, outside its cost */
  struct sweep_schedule plan;
  double latency, service;
  long next;      /* the next task of the list */
  long *pos;      /* per rank: the task it runs; */
  long *left;     /* per rank: tasks of its chunk after that one */
  double free_at; /* the dispatcher is busy until then */
  double busy, end;
  struct heap h;
};

/* The dispatcher takes a message that arrived at t: its service, then (a request) the answer's chunk. */
static int serve(struct sim *m, const struct event *ev)
{
  double start = ev->t > m->free_at ? ev->t : m->free_at;
  m->free_at = start + m->service;
  m->busy += m->service;
  if (m->free_at > m->end) m->end = m->free_at;
  if (ev->kind == EV_ROW) return 0;
  long k = sweep_schedule_chunk(&m->plan, m->next);
  if (!k) return 0; /* no more: the worker is done */
  m->pos[ev->rank] = m->next;
  m->left[ev->rank] = k - 1;
  m->next += k;
  return heap_push(&m->h, m->free_at + m->latency + m->cost[m->pos[ev->rank]] + m->overhead, ev->rank,
                   EV_DONE);
}

/* A task of rank ended at t: its row goes to the dispatcher (with a request when its chunk is done), and
 * its next task starts. Rank 0 runs single tasks straight from the list and records its rows itself. */
static int task_done(struct sim *m, const struct event *ev)
{
  int r = ev->rank, to_dispatcher = r == 0 ? 0 : 1;
  if (ev->t > m->end) m->end = ev->t;
  double arrive = ev->t + (to_dispatcher ? m->latency : 0.0);
  if (r == 0) {
    if (heap_push(&m->h, arrive, 0, EV_ROW)) return 1;
    if (m->next >= m->plan.n) return 0;
    m->pos[0] = m->next++;
    return heap_push(&m->h, ev->t + m->cost[m->pos[0]] + m->overhead, 0, EV_DONE);
  }
  if (m->left[r] == 0) return heap_push(&m->h, arrive, r, EV_REQUEST);
  m->left[r]--;
  m->pos[r]++;
  return heap_push(&m->h, arrive, r, EV_ROW) ||
         heap_push(&m->h, ev->t + m->cost[m->pos[r]] + m->overhead, r, EV_DONE);
}

/* The predicted wall of the task loop on ranks ranks (*busy: the dispatcher's busy seconds); -1 when out of
 * memory. */
static double simulate(const double *cost, long n, int ranks, const struct schedule_settings *o, double *busy)
{
  /* with -order cost the engine's estimates are the recorded costs: they weigh the chunks too */
  const double *weight = o->order == 1 ? cost : NULL;
  struct sim m = {.cost = cost, .overhead = o->overhead, .latency = o->latency, .service = o->service};
  double wall = -1.0;
  m.pos = calloc((size_t)ranks, sizeof *m.pos);
  m.left = calloc((size_t)ranks, sizeof *m.left);
  if (!m.pos || !m.left || sweep_schedule_init(&m.plan, weight, n, ranks, o->task_chunk)) goto cleanup;
  int bad = 0;
  if (n > 0) { /* rank 0's first task at once; every worker's first request */
    m.pos[0] = m.next++;
    bad = heap_push(&m.h, cost[0] + m.overhead, 0, EV_DONE);
  }
  for (int r = 1; r < ranks && !bad; r++)
    bad = heap_push(&m.h, m.latency, r, EV_REQUEST);
  while (!bad && m.h.n > 0) {
    struct event ev = heap_pop(&m.h);
    bad = ev.kind == EV_DONE ? task_done(&m, &ev) : serve(&m, &ev);
  }
  if (!bad) wall = m.end, *busy = m.busy;
cleanup:
  sweep_schedule_free(&m.plan);
  free(m.h.e);
  free(m.pos);
  free(m.left);
  return wall;
}

/* Appends v to *cost (n, cap). 0, or 1 when out of memory. */
static int push_cost(double **cost, long *n, long *cap, double v)
{
  if (*n == *cap) {
    long c = *cap ? 2 * *cap : 1024;
    double *b = realloc(*cost, (size_t)c * sizeof *b);
    if (!b) return 1;
    *cost = b, *cap = c;
  }
  (*cost)[(*n)++] = isfinite(v) && v > 0.0 ? v : 0.0;
  return 0;
}

/* The run's per-task costs: tasks.csv's task_seconds in id order; without tasks.csv, summary.csv's groups,
 * each task its group's mean (*approx = 1). 0, or 2 with a message. */
static int read_costs(const char *dir, double **cost, long *n, int *approx)
{
  char path[SWEEP_PATH_MAX + 32];
  struct table_stream t;
  long cap = 0;
  *n = 0, *approx = 0;
  sweep_path(path, sizeof path, "%s/tasks.csv", dir);
  int rc = table_stream_open(&t, path, TABLE_STRICT);
  if (rc == 1) { /* not kept: the summary's means */
    *approx = 1;
    sweep_path(path, sizeof path, "%s/summary.csv", dir);
    rc = table_stream_open(&t, path, TABLE_STRICT);
  }
  int c = rc ? -1 : table_stream_column(&t, *approx ? "task_seconds_total" : "task_seconds");
  int cn = rc ? -1 : table_stream_column(&t, "count"), got = 0;
  if (!rc && (c < 0 || (*approx && cn < 0))) {
    fprintf(stderr, "error: %s has no %s column\n", path,
            *approx ? "task_seconds_total or count" : "task_seconds");
    rc = 2;
  }
  while (!rc && (got = table_stream_next(&t)) == 1) {
    double v = strtod(t.field[c], NULL);
    long k = *approx ? strtol(t.field[cn], NULL, 10) : 1;
    for (long i = 0; i < k && !rc; i++)
      rc = push_cost(cost, n, &cap, *approx ? v / (double)k : v) ? 2 : 0;
  }
  table_stream_close(&t);
  if (rc == 1) fprintf(stderr, "error: %s has neither tasks.csv nor summary.csv\n", dir);
  return rc || got ? 2 : 0;
}

static int by_cost_descending(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x < y) - (x > y);
}

/* The prediction table for every rank count of -ranks. */
static int predict(const char *dir, const struct schedule_settings *o)
{
  double *cost = NULL, sum = 0.0, longest = 0.0;
  long n = 0;
  int approx = 0, nr = 0, rc = 0;
  if (read_costs(dir, &cost, &n, &approx)) {
    free(cost);
    return 2;
  }
  if (o->order == 1 && n > 0) qsort(cost, (size_t)n, sizeof *cost, by_cost_descending);
  for (long i = 0; i < n; i++)
    sum += cost[i], longest = cost[i] > longest ? cost[i] : longest;
  char **ranks = program_split_list(o->ranks, &nr);
  printf("# %s: %ld tasks, %.6g task seconds (longest %.3g s)%s; order %s, -task_chunk %d, latency %.3g s, "
         "service %.3g s, overhead %.3g s\n",
         dir, n, sum, longest, approx ? ", each its group's mean (no tasks.csv)" : "",
         o->order ? "cost" : "id", o->task_chunk, o->latency, o->service, o->overhead);
  printf("%8s %14s %14s %10s %10s %12s\n", "ranks", "wall_s", "ideal_s", "schedule", "efficiency",
         "dispatcher");
  for (int i = 0; ranks && i < nr && !rc; i++) {
    char *end;
    long p = strtol(ranks[i], &end, 10);
    if (*end || p < 1 || p > 1000000) {
      fprintf(stderr, "error: -ranks: '%s' is not a rank count (1 to 1000000)\n", ranks[i]);
      rc = 2;
      break;
    }
    double busy = 0.0, wall = simulate(cost, n, (int)p, o, &busy);
    double ideal = fmax((sum + (double)n * o->overhead) / (double)p, longest + o->overhead);
    if (wall < 0.0)
      rc = 1;
    else
      printf("%8ld %14.6g %14.6g %10.3f %10.3f %12.3f\n", p, wall, ideal, wall > 0 ? wall / ideal : 0.0,
             wall > 0 ? sum / ((double)p * wall) : 0.0, wall > 0 ? busy / wall : 0.0);
  }
  free(ranks);
  free(cost);
  return rc;
}

/* Ranks 0 and 1: the one-way latency of a small message (ping-pong) and rank 0's time per received row
 * appended to a file (the dispatcher's work for a ledger row; a request's answer costs about the same). */
static int measure(const struct program *p)
{
  enum { ROUNDS = 2000, ROWS = 20000 };
  char row[112], tmp[] = "/tmp/bench_schedule_XXXXXX";
  long x = 0;
  memset(row, 'x', sizeof row);
  row[0] = 'R', row[sizeof row - 1] = '\0';
  if (p->size < 2) {
    fprintf(stderr, "error: -measure needs 2 ranks (mpirun -n 2 bench_schedule -measure)\n");
    return 2;
  }
  int fd = p->rank == 0 ? mkstemp(tmp) : -1;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < ROUNDS && p->rank < 2; i++)
    if (p->rank == 0)
      MPI_Send(&x, 1, MPI_LONG, 1, 1, MPI_COMM_WORLD), MPI_Recv(&x, 1, MPI_LONG, 1, 1, MPI_COMM_WORLD, NULL);
    else
      MPI_Recv(&x, 1, MPI_LONG, 0, 1, MPI_COMM_WORLD, NULL), MPI_Send(&x, 1, MPI_LONG, 0, 1, MPI_COMM_WORLD);
  double latency = (MPI_Wtime() - t0) / (2.0 * ROUNDS);
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  for (int i = 0; i < ROWS && p->rank < 2; i++) {
    if (p->rank == 1) {
      MPI_Send(row, (int)sizeof row, MPI_CHAR, 0, 2, MPI_COMM_WORLD);
      continue;
    }
    MPI_Status st;
    int flag = 0, len = 0;
    while (!flag)
      MPI_Iprobe(MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &flag, &st);
    MPI_Get_count(&st, MPI_CHAR, &len);
    char *buf = malloc((size_t)len + 1);
    MPI_Recv(buf, len, MPI_CHAR, st.MPI_SOURCE, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (fd >= 0 && write(fd, buf, (size_t)len) < 0) fd = -1;
    free(buf);
  }
  double service = (MPI_Wtime() - t0) / ROWS;
  if (p->rank == 0) {
    printf("latency %.3g s (one way, %d round trips); service %.3g s per row (%d rows received and appended "
           "to a file)\n-latency %.3g -service %.3g\n",
           latency, ROUNDS, service, ROWS, latency, service);
    if (fd >= 0) close(fd);
    unlink(tmp);
  }
  return 0;
}

static int run(const struct program *p)
{
  struct schedule_settings o;
  char msg[512];
  if (p->help) {
    if (p->rank == 0) {
      printf(
          "bench_schedule RUN_DIR [options]: predict the run's task-loop wall on other rank counts by\n"
          "replaying its task seconds through the engine's dispatch; mpirun -n 2 bench_schedule -measure:\n"
          "this machine's latency and dispatcher service time.\n");
      option_print(stdout, schedule_options, N_SCHEDULE_OPTIONS, NULL);
    }
    return 0;
  }
  if (option_read(schedule_options, N_SCHEDULE_OPTIONS, p->options, NULL, &o, msg, sizeof msg)) {
    if (p->rank == 0) fprintf(stderr, "error: %s\n", msg);
    return 2;
  }
  if (program_report_unused(p, schedule_options, N_SCHEDULE_OPTIONS, NULL, 0, NULL)) return 2;
  if (o.measure) return measure(p);
  if (p->n_positional != 1) {
    if (p->rank == 0) fprintf(stderr, "error: bench_schedule RUN_DIR: give one run directory\n");
    return 2;
  }
  return p->rank == 0 ? predict(p->positional[0], &o) : 0;
}

int main(int argc, char **argv)
{
  static const char *const flags[] = {"-measure", NULL};
  static const struct program_spec spec = {.name = "bench_schedule",
                                           .usage = "RUN_DIR [options] | -measure",
                                           .positional_min = 0,
                                           .positional_max = 1,
                                           .flags = flags};
  return program_main(&spec, argc, argv, run);
}
