/* siconos.c — the Siconos numerics 4.4 backend: its LCP solvers beside ours, judged by our checker.
 * siconos_lemke: lexicographic Lemke (Cottle-Pang-Stone 1992, Sec. 4.4; SICONOS_LCP_LEMKE);
 * siconos_pgs: projected Gauss-Seidel; siconos_newton_fb: semismooth Newton on Fischer-Burmeister
 * (SICONOS_LCP_NEWTON_FB_FBLSA); siconos_newton_minfb: Newton on min with FB line search
 * (SICONOS_LCP_NEWTON_MIN_FBLSA); siconos_enum: enumeration of the 2^n complementary bases;
 * siconos_pathsearch: Siconos' own path search on its non-monotone stabilisation (SICONOS_LCP_PATHSEARCH,
 * Dirkse & Ferris 1995's scheme; PathSearch.h); siconos_pivot_lumod: complementary pivoting with block-LU
 * updates of the basis (SICONOS_LCP_PIVOT_LUMOD; lcp_pivot.h, LUMOD of Saunders).
 * LCP kind only (Siconos' LCP interface has no bounds or free rows). M goes over COLUMN-major.
 * Siconos' tolerance is relative to ||q||_2 (lcp_compute_error); we convert so that its success implies
 * ours, but only our checker decides. Fatal Siconos errors come back through its setjmp hook.
 * Timing: the conversion (M to column-major, q, the tolerance) is done in setup, before the harness starts
 * the clock, so the timed region holds the Siconos call only. Time limit: Siconos has no way to be
 * interrupted, so with -cp_time_limit > 0 the call runs in a worker process forked by setup (outside the
 * clock) and kept for later solves: the problem, z, w and Siconos' outputs live in shared memory, a pipe
 * says "solve" and "done", and the parent kills the worker at the limit (status time_limit, no answer;
 * the next setup forks a new one). A persistent worker, not a fork per solve: a fresh child's first
 * writes fault on copy-on-write pages, milliseconds that would be timed as Siconos'. */
/* MAP_ANONYMOUS (shared memory for the forked call) is not in XSI 7, which the build selects. */
#define _DEFAULT_SOURCE
#include "siconos_call.h"
#include "solver.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <numerics/LCP_Solvers.h>
#include <numerics/LinearComplementarityProblem.h>
#include <numerics/NonSmoothDrivers.h>
#include <numerics/NumericsMatrix.h>
#include <numerics/NumericsVerbose.h>
#include <numerics/SolverOptions.h>
#include <numerics/lcp_cst.h>
#include <numerics/sn_error_handling.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The shared memory of the worker: the request, its outputs, then M (column-major), q, z and w. */
struct siconos_shared {
  int n, max_it_setting; /* request: size, -cp_max_it */
  double tol_s;          /* request: Siconos' tolerance */
  int info, fatal, iterations, done;
  double residu;
  double seconds; /* wall time of the Siconos call in the child */
  char fatal_msg[160];
  double data[]; /* M (cap x cap), q, z, w (cap each) */
};

struct siconos_data {
  int solver_id;
  int enum_max_n;  /* -siconos_enum_max_n: enum refuses larger problems (default 20: 2^20 solves) */
  int show_stderr; /* -siconos_stderr: let Siconos' own stderr messages through (default false) */
  /* Prepared by setup for one problem (outside the clock): */
  const struct cp_problem *prepared; /* the problem Mc and q hold (NULL: none) */
  int n, cap;                        /* size prepared, capacity of the buffers */
  double *Mc, *q, *zs, *w;           /* column-major M, q, z, w: in the shared memory */
  double tol_s;                      /* Siconos' tolerance matching ours */
  struct siconos_shared *shared;     /* mmap'd, seen by the worker */
  size_t shared_bytes;
  pid_t worker;       /* 0: none */
  int req_fd, rep_fd; /* parent's ends: write a byte to solve, read one when done */
};

/* One prefix for the family ("siconos_"): -siconos_stderr is shared, -siconos_enum_max_n is enum's. */
static const struct option_decl siconos_options[] = {
    {"stderr", OPT_BOOL, offsetof(struct siconos_data, show_stderr), "0", NULL,
     "let Siconos' own stderr messages through"},
};
static const struct option_decl siconos_enum_options[] = {
    {"stderr", OPT_BOOL, offsetof(struct siconos_data, show_stderr), "0", NULL,
     "let Siconos' own stderr messages through"},
    {"enum_max_n", OPT_INT, offsetof(struct siconos_data, enum_max_n), "20", "[1,30]",
     "siconos_enum refuses larger problems (2^n bases)"},
};

static int siconos_create_with(struct solver *s, int id)
{
  struct siconos_data *d = calloc(1, sizeof *d);
  if (!d) return 1;
  d->solver_id = id;
  d->enum_max_n = 20; /* siconos_enum's table overrides; the others never enumerate */
  s->data = d;
  numerics_set_verbose(0); /* Siconos prints to stdout when verbose */
  return 0;
}

static int siconos_lemke_create(struct solver *s) { return siconos_create_with(s, SICONOS_LCP_LEMKE); }
static int siconos_pgs_create(struct solver *s) { return siconos_create_with(s, SICONOS_LCP_PGS); }
static int siconos_nfb_create(struct solver *s)
{
  return siconos_create_with(s, SICONOS_LCP_NEWTON_FB_FBLSA);
}
static int siconos_nmfb_create(struct solver *s)
{
  return siconos_create_with(s, SICONOS_LCP_NEWTON_MIN_FBLSA);
}
static int siconos_enum_create(struct solver *s) { return siconos_create_with(s, SICONOS_LCP_ENUM); }
static int siconos_pathsearch_create(struct solver *s)
{
  return siconos_create_with(s, SICONOS_LCP_PATHSEARCH);
}
static int siconos_lumod_create(struct solver *s) { return siconos_create_with(s, SICONOS_LCP_PIVOT_LUMOD); }

/* The driver call under Siconos' error hook: a fatal error longjmps back here instead of abort(). */
static int siconos_jump_guard(siconos_driver_call call, void *args, int *fatal)
{
  volatile int info = -1; /* volatile: read after a longjmp */
  *fatal = 0;
  if (setjmp(*sn_get_jmp_buf()) == 0) {
    info = call(args);
    sn_release_jmp_buf();
  } else {
    sn_release_jmp_buf();
    *fatal = 1;
  }
  return info;
}

int siconos_guarded_call(siconos_driver_call call, void *args, int quiet, int *fatal)
{
  int saved = -1;
  if (quiet) {
    fflush(stderr);
    int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) {
      saved = dup(STDERR_FILENO);
      if (saved >= 0) dup2(devnull, STDERR_FILENO);
      close(devnull);
    }
  }
  int info = siconos_jump_guard(call, args, fatal);
  if (saved >= 0) {
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
  }
  return info;
}

int siconos_run_forked(const struct solver *s, void (*work)(void *arg), void *arg, int *wstatus)
{
  int pfd[2];
  if (pipe(pfd) != 0) return 2;
  fflush(NULL); /* the child must not inherit unwritten output */
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(0);
    close(pfd[0]);
    work(arg);
    if (write(pfd[1], "x", 1) != 1) _exit(1);
    _exit(0); /* no atexit handlers: MPI and PETSc belong to the parent */
  }
  close(pfd[1]);
  if (pid < 0) {
    close(pfd[0]);
    return 2;
  }
  int rc = 2;
  for (;;) {
    double left = s->set.time_limit - (solver_wall_time() - s->t_start);
    if (left <= 0.0) {
      kill(pid, SIGKILL);
      rc = 1;
      break;
    }
    struct pollfd q = {.fd = pfd[0], .events = POLLIN};
    int ready = poll(&q, 1, (int)ceil(fmin(left, 1e6) * 1e3));
    if (ready < 0 && errno == EINTR) continue;
    if (ready > 0) {
      char c;
      rc = read(pfd[0], &c, 1) == 1 ? 0 : 2;
    }
    if (ready != 0) break;
  }
  close(pfd[0]);
  waitpid(pid, wstatus, 0);
  return rc;
}

struct siconos_lcp_args {
  LinearComplementarityProblem *lcp;
  double *z, *w;
  SolverOptions *o;
};

static int siconos_lcp_call(void *args)
{
  struct siconos_lcp_args *a = args;
  return linearComplementarity_driver(a->lcp, a->z, a->w, a->o);
}

/* Options for one solve (parent and worker build the same): our tolerance and pivot limit. */
static SolverOptions *siconos_make_options(const struct siconos_data *d, int n, int max_it_setting,
                                           double tol_s)
{
  SolverOptions *o = solver_options_create(d->solver_id);
  if (!o) return NULL;
  o->dparam[SICONOS_DPARAM_TOL] = tol_s;
  /* Siconos' recheck after the solve (lcp_compute_error) turns a claim it cannot confirm into info 1 and
   * leaves its error in dparam[SICONOS_DPARAM_RESIDU]. Lemke needs it: 4.4's lcp_lexicolemke returns info 0
   * also when it stops on a ray. Elsewhere it would blur the solver's own verdict (enum: a wrong claim
   * would read as "no solution"), and our harness rechecks every answer anyway. */
  o->filterOn = d->solver_id == SICONOS_LCP_LEMKE;
  if (max_it_setting > 0)
    o->iparam[SICONOS_IPARAM_MAX_ITER] = max_it_setting;
  else if ((d->solver_id == SICONOS_LCP_LEMKE || d->solver_id == SICONOS_LCP_PIVOT_LUMOD) &&
           o->iparam[SICONOS_IPARAM_MAX_ITER] < 10 * n)
    o->iparam[SICONOS_IPARAM_MAX_ITER] = 10 * n; /* a pivoting method needs O(n) pivots */
  return o;
}

SolverOptions *siconos_options_make(int id, double tol, int max_it)
{
  SolverOptions *o = solver_options_create(id);
  if (!o) return NULL;
  o->dparam[SICONOS_DPARAM_TOL] = tol;
  if (max_it > 0) o->iparam[SICONOS_IPARAM_MAX_ITER] = max_it;
  return o;
}

/* o and its internal solvers' options, depth first, into list (at most cap); the count. */
static int options_tree(SolverOptions *o, SolverOptions **list, int cap, int n)
{
  if (!o || n >= cap) return n;
  list[n++] = o;
  for (size_t i = 0; i < o->numberOfInternalSolvers && o->internalSolvers; i++)
    n = options_tree(o->internalSolvers[i], list, cap, n);
  return n;
}

void siconos_options_free(SolverOptions *o)
{
  if (!o) return;
  /* 4.4's delete frees the members only (its free(op) is commented out), also of the internal solvers'
   * options (NSGS's local solver), so every struct of the tree is freed here after it */
  SolverOptions *tree[32];
  const int n = options_tree(o, tree, 32, 0);
  solver_options_delete(o);
  for (int i = 0; i < n; i++)
    free(tree[i]);
}

/* One Siconos solve on the prepared data (d->Mc, d->q) from z; outputs into sh's fields (sh may be a
 * local struct for the in-process path). */
static void siconos_run(const struct siconos_data *d, int n, int max_it_setting, double tol_s, double *z,
                        double *w, struct siconos_shared *sh)
{
  NumericsMatrix *M = NM_create_from_data(NM_DENSE, n, n, d->Mc);
  SolverOptions *o = siconos_make_options(d, n, max_it_setting, tol_s);
  sh->fatal = 0;
  if (!M || !o) {
    sh->fatal = 1;
    snprintf(sh->fatal_msg, sizeof sh->fatal_msg, "out of memory creating the Siconos problem");
  } else {
    LinearComplementarityProblem lcp = {.size = n, .M = M, .q = d->q};
    if (d->solver_id == SICONOS_LCP_ENUM) lcp_enum_init(&lcp, o, 1);
    int fatal = 0;
    double t0 = solver_wall_time();
    struct siconos_lcp_args args = {&lcp, z, w, o};
    sh->info = siconos_guarded_call(siconos_lcp_call, &args, !d->show_stderr, &fatal);
    sh->seconds = solver_wall_time() - t0;
    if (d->solver_id == SICONOS_LCP_ENUM) lcp_enum_reset(&lcp, o, 1);
    sh->fatal = fatal;
    if (fatal) snprintf(sh->fatal_msg, sizeof sh->fatal_msg, "%s", sn_fatal_error_msg());
    sh->iterations = o->iparam[SICONOS_IPARAM_ITER_DONE];
    sh->residu = o->dparam[SICONOS_DPARAM_RESIDU];
  }
  siconos_options_free(o);
  if (M) {
    M->matrix0 = NULL; /* Mc is ours */
    NM_free(M);
  }
}

/* The worker: one solve per request byte, until the parent closes the pipe. */
static void siconos_worker_loop(struct siconos_data *d, int req, int rep)
{
  char c = 0;
  while (read(req, &c, 1) == 1) {
    struct siconos_shared *sh = d->shared;
    int n = sh->n;
    d->Mc = sh->data;
    d->q = d->Mc + (size_t)n * n;
    double *z = d->q + n;
    siconos_run(d, n, sh->max_it_setting, sh->tol_s, z, z + n, sh);
    sh->done = 1;
    if (write(rep, "x", 1) != 1) break;
  }
  _exit(0); /* no atexit handlers: MPI and PETSc belong to the parent */
}

static int siconos_worker_start(struct siconos_data *d)
{
  int req[2], rep[2];
  if (pipe(req) != 0) return 1;
  if (pipe(rep) != 0) {
    close(req[0]);
    close(req[1]);
    return 1;
  }
  fflush(NULL); /* the worker must not inherit unwritten output */
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    /* dies with its parent (e.g. a sweep task killed at -task_time_limit) instead of idling forever */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(0);
    close(req[1]);
    close(rep[0]);
    siconos_worker_loop(d, req[0], rep[1]);
  }
  close(req[0]);
  close(rep[1]);
  if (pid < 0) {
    close(req[1]);
    close(rep[0]);
    return 1;
  }
  d->worker = pid;
  d->req_fd = req[1];
  d->rep_fd = rep[0];
  return 0;
}

/* Ends the worker (killed when kill_it, else it sees the pipe close); returns its wait status. */
static int siconos_worker_stop(struct siconos_data *d, int kill_it)
{
  int wstatus = 0;
  if (d->worker <= 0) return 0;
  if (kill_it) kill(d->worker, SIGKILL);
  close(d->req_fd);
  close(d->rep_fd);
  waitpid(d->worker, &wstatus, 0);
  d->worker = 0;
  return wstatus;
}

/* One solve in the worker, killed at the time limit. Returns 0 when it finished (outputs in d->shared,
 * z copied back, w in d->w), 1 at the time limit, 2 if the worker is gone (*wstatus: how it ended). */
static int siconos_call_worker(struct solver *s, int n, double *z, int *wstatus)
{
  struct siconos_data *d = s->data;
  struct siconos_shared *sh = d->shared;
  if (d->worker <= 0 && siconos_worker_start(d) != 0) return 2;
  sh->n = n;
  sh->max_it_setting = s->set.max_it;
  sh->tol_s = d->tol_s;
  sh->done = 0;
  sh->fatal_msg[0] = '\0';
  memcpy(d->zs, z, (size_t)n * sizeof *z);
  /* a worker that died already must not take us with it through SIGPIPE */
  struct sigaction ignore = {0}, old;
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &old);
  ssize_t sent = write(d->req_fd, "s", 1);
  sigaction(SIGPIPE, &old, NULL);
  char c = 0;
  int got = 0;
  while (sent == 1) {
    double left = s->set.time_limit > 0.0 ? s->set.time_limit - (solver_wall_time() - s->t_start) : 1e6;
    if (left <= 0.0) {
      *wstatus = siconos_worker_stop(d, 1);
      return 1;
    }
    struct pollfd pfd = {.fd = d->rep_fd, .events = POLLIN};
    int ready = poll(&pfd, 1, (int)ceil(fmin(left, 1e6) * 1e3));
    if (ready < 0 && errno == EINTR) continue;
    if (ready > 0) {
      got = read(d->rep_fd, &c, 1) == 1;
      break;
    }
    if (ready < 0) break;
  }
  if (!got || !sh->done) {
    *wstatus = siconos_worker_stop(d, 1);
    return 2;
  }
  memcpy(z, d->zs, (size_t)n * sizeof *z);
  return 0;
}

/* Converts p for Siconos (column-major M, q, the tolerance) into buffers kept across solves; called by
 * the harness before the clock starts, and by solve if it was not (a caller that skipped solver_setup). */
/* The call runs in the worker process under a time limit, and always for lcp_pivot_lumod: Siconos 4.4's
 * lcp_pivot_lumod_covering_vector aborts on an assertion (bck_drive >= 0) on some contact LCPs, which must
 * be a recorded status, not the end of the run. */
static int siconos_in_worker(const struct solver *s)
{
  const struct siconos_data *d = s->data;
  return s->set.time_limit > 0.0 || d->solver_id == SICONOS_LCP_PIVOT_LUMOD;
}

static int siconos_setup(struct solver *s, const struct cp_problem *p)
{
  struct siconos_data *d = s->data;
  int n = p->n;
  d->prepared = NULL;
  if (!cp_is_linear(p) || n <= 0) return 0;
  if (n > d->cap) {
    siconos_worker_stop(d, 1); /* it maps the old memory */
    if (d->shared) munmap(d->shared, d->shared_bytes);
    d->shared = NULL;
    d->cap = 0;
    d->shared_bytes = sizeof(struct siconos_shared) + ((size_t)n * n + 3 * (size_t)n) * sizeof(double);
    void *m = mmap(NULL, d->shared_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return 1;
    d->shared = m;
    d->cap = n;
  }
  /* packed for this n (the worker finds them from n alone) */
  d->Mc = d->shared->data;
  d->q = d->Mc + (size_t)n * n;
  d->zs = d->q + n;
  d->w = d->zs + n;
  for (int i = 0; i < n; i++) /* ours row-major, Siconos dense column-major */
    for (int j = 0; j < n; j++)
      d->Mc[(size_t)j * n + i] = p->M[(size_t)i * n + j];
  double qinf = cp_scale(p, NULL), qmax = 0.0, q2 = 0.0; /* the checker's capped scale (cp.h) */
  for (int i = 0; i < n; i++) {
    d->q[i] = p->q[i];
    qmax = fmax(qmax, fabs(d->q[i]));
  }
  for (int i = 0; i < n && qmax > 0.0; i++) /* ||q||_2 without overflow for ||q|| near DBL_MAX */
    q2 += (d->q[i] / qmax) * (d->q[i] / qmax);
  q2 = qmax * sqrt(q2);
  /* Siconos stops at ||z - max(0, z - w)||_2 / ||q||_2 <= tol_s (absolute when ||q||_2 ~ 0); ours is
   * ||.||_inf <= tol scale. ||.||_inf <= ||.||_2, so this tol_s makes its stop imply ours. */
  d->tol_s = q2 > 1e-300 ? s->set.tol * qinf / q2 : s->set.tol;
  d->prepared = p;
  d->n = n;
  if (siconos_in_worker(s) && d->worker <= 0 && siconos_worker_start(d) != 0) return 1;
  return 0;
}

/* What came back from one Siconos call. */
struct siconos_outcome {
  int killed, died, wstatus; /* the worker killed at the time limit, or dead (wstatus) */
  int max_it;                /* the pivot limit Siconos used, for telling its info 1 apart */
  int info, fatal, iterations;
  double residu;
  const char *fatal_msg;
};

/* The Siconos call from z (0 unless -cp_warm_start): in the worker under a time limit, else here with its
 * outputs in *local (which fatal_msg may point into). 0, or 1 when its options cannot be made. */
static int siconos_solve_call(struct solver *s, int n, double *z, struct siconos_shared *local,
                              struct siconos_outcome *out, struct solve_result *r)
{
  struct siconos_data *d = s->data;
  SolverOptions *o = siconos_make_options(d, n, s->set.max_it, d->tol_s);
  if (!o) return 1;
  out->max_it = o->iparam[SICONOS_IPARAM_MAX_ITER];
  siconos_options_free(o);
  if (s->set.warm_start == 0)
    for (int i = 0; i < n; i++)
      z[i] = 0.0;
  struct siconos_shared *sh = d->shared;
  if (siconos_in_worker(s)) {
    int rc = siconos_call_worker(s, n, z, &out->wstatus);
    out->killed = rc == 1;
    out->died = rc == 2;
    if (rc == 0) r->call_seconds = sh->seconds; /* the call alone, not the pipe round trip */
  } else {
    sh = local;
    siconos_run(d, n, s->set.max_it, d->tol_s, z, d->w, sh);
  }
  int gone = out->killed || out->died;
  out->info = gone ? -1 : sh->info;
  out->fatal = !gone && sh->fatal;
  out->iterations = gone ? 0 : sh->iterations;
  out->residu = gone ? NAN : sh->residu;
  out->fatal_msg = sh->fatal_msg;
  return 0;
}

/* lcp_lexicolemke's info 1. With filterOn it is either its pivot limit (iter = itermax, its documented info
 * 1) or its own error check rejecting where it stopped: lexicolemke leaves the pivot loop before the limit
 * only on success or on a ray (pivot column nonpositive), and 4.4 reports both as info 0. What it returns
 * tells them apart: at a complementary basis z and w are nonnegative (Siconos' error is then only
 * inaccuracy); at a ray 4.4 hands back a point that is not (e.g. w = q < 0). */
static void siconos_lemke_failure(const struct siconos_data *d, int n, const double *z,
                                  const struct siconos_outcome *out, struct solve_result *r)
{
  double scale = cp_scale_q(n, d->q), most_negative = 0.0;
  for (int i = 0; i < n; i++)
    most_negative = fmin(most_negative, fmin(z[i], d->w[i]));
  if (out->iterations >= out->max_it) {
    r->status = SOLVE_MAX_ITERATIONS;
    snprintf(r->message, sizeof r->message, "Siconos: pivot limit %d reached (info 1)", out->max_it);
  } else if (most_negative < -1e-8 * scale) {
    r->status = SOLVE_RAY_TERMINATION;
    snprintf(r->message, sizeof r->message,
             "Siconos stopped after %d of %d pivots without a complementary basis (min(z, w) = %.3g): a ray",
             out->iterations, out->max_it, most_negative);
  } else {
    r->status = SOLVE_NUMERICAL_FAILURE;
    snprintf(r->message, sizeof r->message,
             "Siconos reached a complementary basis after %d pivots, but its own error check failed: %.3g > "
             "tol %.3g",
             out->iterations, out->residu, d->tol_s);
  }
}

/* The status (and message) of the call's outcome; a claim of convergence is the harness's to check. */
static void siconos_status(const struct solver *s, int n, const double *z, const struct siconos_outcome *out,
                           struct solve_result *r)
{
  const struct siconos_data *d = s->data;
  if (out->killed) {
    r->status = SOLVE_TIME_LIMIT;
    snprintf(r->message, sizeof r->message, "Siconos call killed at the time limit %g s (-cp_time_limit)",
             s->set.time_limit);
  } else if (out->died) {
    r->status = SOLVE_NUMERICAL_FAILURE;
    if (WIFSIGNALED(out->wstatus))
      snprintf(r->message, sizeof r->message, "Siconos died on signal %d", WTERMSIG(out->wstatus));
    else
      snprintf(r->message, sizeof r->message, "Siconos could not be run in a worker process");
  } else if (out->fatal) {
    r->status = SOLVE_NUMERICAL_FAILURE;
    snprintf(r->message, sizeof r->message, "Siconos fatal error: %.130s", out->fatal_msg);
  } else if (out->info == 0) {
    r->status = SOLVE_CONVERGED; /* a claim: the harness checks it */
  } else if (d->solver_id == SICONOS_LCP_LEMKE) {
    siconos_lemke_failure(d, n, z, out, r);
  } else if (d->solver_id == SICONOS_LCP_ENUM) {
    /* every basis tried without a solution; singular bases are skipped, so this proves nothing */
    r->status = SOLVE_NUMERICAL_FAILURE;
    snprintf(r->message, sizeof r->message,
             "siconos_enum: no basis gave a solution (singular bases skipped: not a proof of infeasibility)");
  } else if (out->info == 1) {
    r->status = SOLVE_MAX_ITERATIONS;
  } else if (d->solver_id == SICONOS_LCP_PGS && out->info == 2) {
    r->status = SOLVE_NOT_APPLICABLE;
    snprintf(r->message, sizeof r->message, "siconos_pgs: a diagonal entry of M vanishes");
  } else {
    r->status = SOLVE_NUMERICAL_FAILURE;
  }
}

static int siconos_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  struct siconos_data *d = s->data;
  int n = p->n;
  if (d->solver_id == SICONOS_LCP_ENUM && n > d->enum_max_n) {
    r->status = SOLVE_NOT_APPLICABLE;
    snprintf(r->message, sizeof r->message, "siconos_enum: n = %d above -siconos_enum_max_n %d", n,
             d->enum_max_n);
    return 0;
  }
  if (n == 0) {
    r->status = SOLVE_CONVERGED;
    return 0;
  }
  if ((d->prepared != p || d->n != n) && siconos_setup(s, p) != 0) return 1;
  struct siconos_shared local = {0};
  struct siconos_outcome out = {0};
  if (siconos_solve_call(s, n, z, &local, &out, r) != 0) return 1;
  r->iterations = out.iterations;
  siconos_status(s, n, z, &out, r);
  /* pivoting and enumeration leave no approximate answer when they stop short (solver.h) */
  if (out.killed || out.died ||
      (r->status != SOLVE_CONVERGED &&
       (d->solver_id == SICONOS_LCP_LEMKE || d->solver_id == SICONOS_LCP_ENUM ||
        d->solver_id == SICONOS_LCP_PIVOT_LUMOD)))
    r->no_answer = 1;
  if (!r->message[0] && r->status != SOLVE_CONVERGED)
    snprintf(r->message, sizeof r->message, "Siconos info %d after %d iterations (its error %.3g)", out.info,
             r->iterations, out.residu);
  return 0;
}

static void siconos_destroy(struct solver *s)
{
  struct siconos_data *d = s->data;
  if (d) {
    siconos_worker_stop(d, 1); /* idle; and a later worker may hold its pipe open */
    if (d->shared) munmap(d->shared, d->shared_bytes);
  }
  free(s->data);
  s->data = NULL;
}

static void siconos_view(const struct solver *s, FILE *out)
{
  const struct siconos_data *d = s->data;
  fprintf(out, "  Siconos numerics solver id %d (%s)", d->solver_id, solver_options_id_to_name(d->solver_id));
  if (d->solver_id == SICONOS_LCP_ENUM) fprintf(out, ", enum_max_n %d", d->enum_max_n);
  fprintf(out, "\n");
}

#define SICONOS_TYPE(NAME, CREATE, OPTIONS, SUMMARY)                                                         \
  const struct solver_type solver_type_##NAME = {                                                            \
      .name = #NAME,                                                                                         \
      .summary = (SUMMARY),                                                                                  \
      .kinds = CP_LCP,                                                                                       \
      .options = (OPTIONS),                                                                                  \
      .n_options = (int)(sizeof(OPTIONS) / sizeof(OPTIONS)[0]),                                              \
      .option_prefix = "siconos_",                                                                           \
      .create = (CREATE),                                                                                    \
      .setup = siconos_setup,                                                                                \
      .solve = siconos_solve,                                                                                \
      .destroy = siconos_destroy,                                                                            \
      .view = siconos_view,                                                                                  \
  }

SICONOS_TYPE(siconos_lemke, siconos_lemke_create, siconos_options, "Siconos lexicographic Lemke");
SICONOS_TYPE(siconos_pgs, siconos_pgs_create, siconos_options, "Siconos projected Gauss-Seidel");
SICONOS_TYPE(siconos_newton_fb, siconos_nfb_create, siconos_options,
             "Siconos Newton on Fischer-Burmeister, line search");
SICONOS_TYPE(siconos_newton_minfb, siconos_nmfb_create, siconos_options,
             "Siconos Newton on min, FB line search");
SICONOS_TYPE(siconos_enum, siconos_enum_create, siconos_enum_options,
             "Siconos enumeration (-siconos_enum_max_n 20)");
SICONOS_TYPE(siconos_pathsearch, siconos_pathsearch_create, siconos_options,
             "Siconos path search, non-monotone stabilisation");
SICONOS_TYPE(siconos_pivot_lumod, siconos_lumod_create, siconos_options,
             "Siconos complementary pivoting, block-LU (LUMOD) basis updates");
