/* NAME    bench_incline — block on an incline: a validation users can point at their own numbers.
 * PURPOSE for each (dim, theta, mu, h, formulation, solver) simulate a block released at rest on an
 *         incline for -T seconds and compare with Coulomb's answer: it sticks when tan theta <= mu
 *         (measured = drift along the slope, analytic 0) and otherwise slides with
 *         a = g (sin theta - mu cos theta) (measured = mean acceleration). Issue 3 known answers: drift
 *         < 1e-9 after 1 s, a within 1e-6 relative at h = 1e-3. In 3D the slide runs along a friction
 *         direction of the pyramid cone (formulation_tangents), where the pyramid bound equals mu p_n.
 * USAGE   bench_incline [-options_file bench/experiments/incline.opts] [-theta 10,30 (degrees)]
 *         [-mu 0.3,0.6] [-h 1e-3,1e-2] [-formulation stewart_trinkle,anitescu_potra] [-cp_solver lemke]
 *         [-dim 2,3] [-T 1] [-friction_dirs 4] [-output rows.csv]
 * PAPER   Stewart & Trinkle 1996 / Egan et al. eqs. 5-7; Anitescu-Hart eq. 6 (the formulations tested).
 * Until the sweep engine (bench/engine) lands, tasks are dealt round-robin over the MPI ranks and rank 0
 * prints the table (and -output CSV). Exit 0 when every applicable run passed, 1 otherwise, 2 on bad input.
 */
#include "formulation.h"
#include "scenes.h"

#include <math.h>
#include <mpi.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

#define AXIS_MAX 32

static const char help[] =
    "bench_incline: block on an incline vs Coulomb's analytic answer.\n"
    "  -theta a,b,...       incline angles in degrees (default 10,15,20,30)\n"
    "  -mu a,b,...          friction coefficients (default 0.3)\n"
    "  -h a,b,...           time steps (default 1e-3)\n"
    "  -formulation a,b     formulations (default stewart_trinkle,anitescu_potra)\n"
    "  -cp_solver a,b       solvers (default lemke)\n"
    "  -dim 2,3             dimensions (default 2,3)\n"
    "  -T t                 simulated seconds (default 1)\n"
    "  -output FILE         also write the rows as CSV\n"
    "Stick tolerance 1e-9 (drift), slide tolerance 1e-6 (relative acceleration error).\n";

struct axes {
  double theta[AXIS_MAX], mu[AXIS_MAX], h[AXIS_MAX];
  int n_theta, n_mu, n_h, n_form, n_solver, n_dim;
  char *form[AXIS_MAX], *solver[AXIS_MAX];
  int dim[AXIS_MAX];
  double T;
};

struct task {
  int dim;
  double theta, mu, h;
  const char *form, *solver;
};

/* Numeric part of a row (so rows can be reduced across ranks); text columns come from the task. */
struct row {
  double measured, analytic, rel_error, step_seconds, status; /* status: enum row_status */
  double failed_at;
};

enum row_status { ROW_OK, ROW_FAIL, ROW_SOLVE_FAILED, ROW_NOT_APPLICABLE, ROW_SETUP_ERROR };
static const char *const row_status_names[] = {"ok", "fail", "solve_failed", "not_applicable", "setup_error"};

static int task_count(const struct axes *a)
{
  return a->n_dim * a->n_theta * a->n_mu * a->n_h * a->n_form * a->n_solver;
}

/* Task id -> parameters; the solver varies fastest. */
static struct task task_of(const struct axes *a, int id)
{
  struct task t;
  t.solver = a->solver[id % a->n_solver], id /= a->n_solver;
  t.form = a->form[id % a->n_form], id /= a->n_form;
  t.h = a->h[id % a->n_h], id /= a->n_h;
  t.mu = a->mu[id % a->n_mu], id /= a->n_mu;
  t.theta = a->theta[id % a->n_theta], id /= a->n_theta;
  t.dim = a->dim[id % a->n_dim];
  return t;
}

/* Position along the downhill direction and the body's speed along it. */
static void downhill(const struct world *w, double theta, double *s, double *v)
{
  const struct body *b = &w->bodies[1];
  if (w->dim == 2) { /* incline normal (-sin, cos): downhill (-cos, -sin) */
    *s = -(b->x[0] * cos(theta) + b->x[1] * sin(theta));
    *v = -(b->v[0] * cos(theta) + b->v[1] * sin(theta));
  } else { /* normal (-sin, 0, cos): downhill (-cos, 0, -sin) */
    *s = -(b->x[0] * cos(theta) + b->x[2] * sin(theta));
    *v = -(b->v[0] * cos(theta) + b->v[2] * sin(theta));
  }
}

static struct row run_task(const struct task *t, double T)
{
  struct row r = {0.0, 0.0, 0.0, 0.0, ROW_SETUP_ERROR, -1.0};
  const double g = 9.81, theta = t->theta * M_PI / 180.0;
  struct world *w = t->dim == 2 ? scene_incline_2d(theta, t->mu, 0.4, 0.2, 2.0)
                                : scene_incline_3d(theta, t->mu, 0.2, 0.15, 0.1, 2.0);
  struct formulation *f = NULL;
  struct solver *s = NULL;
  struct stepper *st = NULL;
  if (!w || formulation_create(t->form, &f) || formulation_set_from_options(f) ||
      solver_create(t->solver, &s) || solver_set_from_options(s) || stepper_create(&st))
    goto cleanup;
  int frictionless = strcmp(t->form, "acceleration_lcp") == 0 || strcmp(t->form, "impulse_lcp") == 0;
  if (!formulation_supports(f, w) || (frictionless && t->mu > 0.0)) {
    r.status = ROW_NOT_APPLICABLE;
    goto cleanup;
  }
  w->threshold = 0.01;
  int steps = (int)floor(T / t->h + 1e-9);
  double s0, v0, s1, v1, seconds = 0.0;
  downhill(w, theta, &s0, &v0);
  r.status = ROW_OK;
  for (int i = 0; i < steps; i++) {
    struct step_record rec;
    if (stepper_step(st, w, f, s, t->h, &rec)) {
      r.status = ROW_SETUP_ERROR;
      goto cleanup;
    }
    seconds += rec.seconds_detect + rec.seconds_assemble + rec.seconds_solve + rec.seconds_recover;
    if (rec.failed) {
      r.status = ROW_SOLVE_FAILED;
      r.failed_at = w->t;
      break;
    }
  }
  downhill(w, theta, &s1, &v1);
  r.step_seconds = steps > 0 ? seconds / steps : 0.0;
  if (r.status != ROW_OK) goto cleanup;
  double tt = steps * t->h;
  if (tan(theta) <= t->mu) {
    r.measured = s1 - s0;
    r.analytic = 0.0;
    r.rel_error = fabs(r.measured); /* absolute drift: the analytic value is 0 */
    if (r.rel_error >= 1e-9) r.status = ROW_FAIL;
  } else {
    r.measured = (v1 - v0) / tt;
    r.analytic = g * (sin(theta) - t->mu * cos(theta));
    r.rel_error = fabs(r.measured - r.analytic) / r.analytic;
    if (r.rel_error > 1e-6) r.status = ROW_FAIL;
  }
cleanup:
  stepper_destroy(&st);
  solver_destroy(&s);
  formulation_destroy(&f);
  world_destroy(&w);
  return r;
}

static int parse_reals(const char *name, double *v, int *n, double def)
{
  PetscInt cnt = AXIS_MAX;
  PetscBool set;
  if (PetscOptionsGetRealArray(NULL, NULL, name, v, &cnt, &set)) return 1;
  *n = set ? (int)cnt : 1;
  if (!set) v[0] = def;
  return *n < 1;
}

static int parse_strings(const char *name, char **v, int *n, const char *def)
{
  PetscInt cnt = AXIS_MAX;
  PetscBool set;
  if (PetscOptionsGetStringArray(NULL, NULL, name, v, &cnt, &set)) return 1;
  if (set) { /* own copies, so that every entry is released with free() */
    for (PetscInt i = 0; i < cnt; i++) {
      char *c = strdup(v[i]);
      PetscFree(v[i]);
      v[i] = c;
    }
  } else {
    char *buf = strdup(def), *save = NULL;
    cnt = 0;
    for (char *tok = strtok_r(buf, ",", &save); tok && cnt < AXIS_MAX; tok = strtok_r(NULL, ",", &save))
      v[cnt++] = strdup(tok);
    free(buf);
  }
  *n = (int)cnt;
  return *n < 1;
}

static int parse(struct axes *a)
{
  PetscInt cnt = AXIS_MAX, dims[AXIS_MAX];
  PetscBool set;
  memset(a, 0, sizeof *a);
  if (parse_reals("-theta", a->theta, &a->n_theta, 10.0)) return 1;
  PetscOptionsHasName(NULL, NULL, "-theta", &set);
  if (!set) { /* default sweep: two sticking and two sliding angles at mu = 0.3 */
    const double def[4] = {10.0, 15.0, 20.0, 30.0};
    memcpy(a->theta, def, sizeof def);
    a->n_theta = 4;
  }
  if (parse_reals("-mu", a->mu, &a->n_mu, 0.3) || parse_reals("-h", a->h, &a->n_h, 1e-3)) return 1;
  if (parse_strings("-formulation", a->form, &a->n_form, "stewart_trinkle,anitescu_potra")) return 1;
  if (parse_strings("-cp_solver", a->solver, &a->n_solver, "lemke")) return 1;
  if (PetscOptionsGetIntArray(NULL, NULL, "-dim", dims, &cnt, &set)) return 1;
  a->n_dim = set ? (int)cnt : 2;
  for (int i = 0; i < a->n_dim; i++)
    a->dim[i] = set ? (int)dims[i] : i + 2;
  a->T = 1.0;
  PetscOptionsGetReal(NULL, NULL, "-T", &a->T, NULL);
  for (int i = 0; i < a->n_dim; i++)
    if (a->dim[i] != 2 && a->dim[i] != 3) return fprintf(stderr, "error: -dim takes 2 and/or 3\n"), 1;
  for (int i = 0; i < a->n_h; i++)
    if (!(a->h[i] > 0.0)) return fprintf(stderr, "error: -h must be positive\n"), 1;
  for (int i = 0; i < a->n_form; i++)
    if (!formulation_find(a->form[i])) {
      fprintf(stderr, "error: unable to find requested formulation type '%s'; valid: ", a->form[i]);
      formulation_registry_names(stderr);
      fprintf(stderr, "\n");
      return 1;
    }
  for (int i = 0; i < a->n_solver; i++)
    if (!solver_find(a->solver[i])) {
      fprintf(stderr, "error: unable to find requested solver type '%s'; valid: ", a->solver[i]);
      solver_registry_names(stderr);
      fprintf(stderr, "\n");
      return 1;
    }
  return 0;
}

static void print_rows(FILE *out, const struct axes *a, const struct row *rows, int csv)
{
  const char *hdr =
      csv ? "dim,theta,mu,h,formulation,solver,status,measured,analytic,rel_error,step_seconds,failed_at\n"
          : "dim theta   mu     h        formulation       solver       status          measured"
            "         analytic         rel_error  step_seconds\n";
  fputs(hdr, out);
  for (int id = 0; id < task_count(a); id++) {
    struct task t = task_of(a, id);
    const struct row *r = &rows[id];
    const char *st = row_status_names[(int)r->status];
    if (csv)
      fprintf(out, "%d,%g,%g,%g,%s,%s,%s,%.12g,%.12g,%.3e,%.3e,%g\n", t.dim, t.theta, t.mu, t.h, t.form,
              t.solver, st, r->measured, r->analytic, r->rel_error, r->step_seconds, r->failed_at);
    else
      fprintf(out, "%-3d %-7g %-6g %-8g %-17s %-12s %-15s %-16.10g %-16.10g %-10.3e %.3e\n", t.dim, t.theta,
              t.mu, t.h, t.form, t.solver, st, r->measured, r->analytic, r->rel_error, r->step_seconds);
  }
}

int main(int argc, char **argv)
{
  struct axes a;
  int rank, size, rc = 0;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  PetscBool want_help;
  PetscOptionsHasName(NULL, NULL, "-help", &want_help);
  if (want_help) {
    if (rank == 0) {
      formulation_registry_print(stdout);
      solver_registry_print(stdout);
    }
    PetscCall(PetscFinalize());
    return 0;
  }
  if (parse(&a)) {
    if (rank == 0) fputs(help, stderr);
    PetscCall(PetscFinalize());
    return 2;
  }
  int n = task_count(&a);
  const int width = (int)(sizeof(struct row) / sizeof(double));
  struct row *mine = calloc((size_t)n, sizeof *mine), *all = calloc((size_t)n, sizeof *all);
  for (int id = rank; id < n; id += size) {
    struct task t = task_of(&a, id);
    mine[id] = run_task(&t, a.T);
  }
  MPI_Reduce(mine, all, n * width, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    print_rows(stdout, &a, all, 0);
    char path[PETSC_MAX_PATH_LEN];
    PetscBool set;
    PetscOptionsGetString(NULL, NULL, "-output", path, sizeof path, &set);
    if (set) {
      FILE *fp = fopen(path, "w");
      if (fp) {
        print_rows(fp, &a, all, 1);
        fclose(fp);
      } else {
        fprintf(stderr, "error: cannot write %s\n", path);
        rc = 2;
      }
    }
    for (int id = 0; id < n && rc == 0; id++)
      if (all[id].status != ROW_OK && all[id].status != ROW_NOT_APPLICABLE) rc = 1;
  }
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  free(mine);
  free(all);
  for (int i = 0; i < a.n_form; i++)
    free(a.form[i]);
  for (int i = 0; i < a.n_solver; i++)
    free(a.solver[i]);
  PetscCall(PetscFinalize());
  return rc;
}
