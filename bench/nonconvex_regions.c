/* NAME    bench_nonconvex_regions — Egan, Berard & Trinkle Figs. 4 and 7: the free space each form models.
 * PURPOSE one step (h = 2, frictionless, no gravity) of a point disc aimed at every target t of a grid; the
 *         step's end says what the formulation takes as free. Obstacles: corner (scene point_corner, Fig. 3's
 *         L: two sides) and polyN (scene point_polygon: a regular N-gon of inradius -inradius x eps, one
 *         group of N short sides). mistaken_area: targets inside the obstacle where the point ends inside
 *         freely (no impulse: the summation form's cap, Fig. 4: the triangle x + y >= -eps of area
 *         eps^2 / 2; Fig. 7: larger with more close sides); max_depth: the deepest end inside, accepted or
 *         pushed (a point pushed onto the cap's hypotenuse ends up to eps / 2 deep, the paper's z_b2).
 * phantom_offset: along a ray out of a side (corner: q = (-eps, delta); polygon: below its bottom side), the
 * farthest free target the step refuses. Every target is also judged by the form's own closed-form region
 * (predicted_*): eq. 30 sum_i max(0, d_i + eps) >= eps, eq. 35 (as our default assembles it) sum_i max(0, d_i
 * + eps) >= (n - 1) eps, max: max_i d_i >= 0. USAGE   bench_nonconvex_regions [-options_file
 * bench/experiments/nonconvex_regions.opts]
 *         [-obstacle corner,poly3,poly4,poly6] [-eps 0.02] [-form sum_eq35,sum_eq30,max,stewart_trinkle]
 *         [-cp_solver lemke,enum,milp] [-grid 40] [-inradius 0.8] [sweep options]
 * PAPER   Egan, Berard & Trinkle, Secs. V-VI (eqs. 24-30), Figs. 4 and 7, appendix eqs. 32-35. */
#include "engine/sweep.h"
#include "formulation.h"
#include "scenes.h"
#include "world_detect.h"

#include <math.h>
#include <petscsys.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const struct sweep_axis axes[] = {
    {"obstacle", NULL, SWEEP_STRING, "corner,poly3,poly4,poly6",
     "corner (Fig. 3's L, 2 sides) or polyN (a regular N-gon, N = 3..64: one group of N sides)", 0,
     SWEEP_INSTANCE, NULL},
    {"eps", NULL, SWEEP_REAL, "0.02", "the summation form's epsilon (-nc_epsilon) [m]; the paper's 0.02", 0,
     SWEEP_INSTANCE, "(0,0.1]"},
    {"form", NULL, SWEEP_STRING, "sum_eq35,sum_eq30,max,stewart_trinkle",
     "sum_eq35 / sum_eq30: nonconvex_sum with -nc_sum_rhs eq35 / eq30; max: nonconvex_max (gamma 100); "
     "stewart_trinkle",
     0, SWEEP_METHOD, NULL},
    {"solver", "-cp_solver", SWEEP_SOLVER, "lemke,enum,milp", "solvers", 0, SWEEP_METHOD, NULL},
};

static const struct sweep_column columns[] = {
    {"mistaken_area", SWEEP_INFO,
     "area of the targets inside the obstacle that the step lets the point fly into freely [m^2]",
     .floor = 0},
    {"predicted_area", SWEEP_INFO, "the same area by the form's closed-form region (empty: stewart_trinkle)",
     .floor = 0},
    {"analytic_area", SWEEP_INFO, "corner, summation: the cap triangle eps^2 / 2; max: 0 [m^2]", .floor = 0},
    {"mistaken_share", SWEEP_INFO, "mistaken_area / the obstacle's area in the grid window", .floor = 0},
    {"predicted_share", SWEEP_INFO, "predicted_area / the obstacle's area in the grid window", .floor = 0},
    {"outside_region", SWEEP_INFO,
     "targets accepted that the region refuses by more than the tolerance (a free flight there cannot solve "
     "the form's LCP: 0)",
     .floor = 0},
    {"phantom_offset", SWEEP_INFO,
     "largest offset out of the probed side at which the step moves the point [m]", .floor = 0},
    {"predicted_offset", SWEEP_INFO, "the same by the closed-form region [m]", .floor = 0},
    {"max_depth", SWEEP_INFO, "deepest end inside the obstacle (-max_i d_i), accepted or pushed [m]",
     .floor = 0},
    {"sides", SWEEP_INFO, "sides the formulation built (nonconvex forms: normal rows)", .floor = 0},
    {"unsolved", SWEEP_INFO, "targets whose solve did not converge", .floor = 0},
    {"solves", SWEEP_INFO, "solves (the grid's targets inside the obstacle, and the ray's)", .count = 1},
    {"solve_seconds", SWEEP_COST, "wall time of all the task's solves, solver only [s]", .floor = 0},
};

struct regions_ctx {
  int grid;
  double inradius; /* polygon inradius / eps */
};

static const struct option_decl options[] = {
    {"grid", OPT_INT, offsetof(struct regions_ctx, grid), "40", "[4,400]",
     "targets per side of the grid (and on the phantom ray)"},
    {"inradius", OPT_REAL, offsetof(struct regions_ctx, inradius), "0.8", "(0,100]",
     "polyN: the polygon's inradius in units of eps"},
};

static const double point_r = 1.0 / 1024.0; /* the scenes' point disc */
static const double step_h = 2.0;           /* the paper's Fig. 3 step */

/* The obstacle's sides as half-planes n . c <= off (c the disc centre; off includes the radius, so that
 * d_i = n_i . c - off_i is the side's gap), the point's start and the grid window. */
struct obstacle {
  int n;
  double nrm[128], off[64];
  double start[2], lo[2], hi[2], area; /* area: the obstacle's inside the window */
  double ray0[2], ray_dir[2];          /* phantom probe: targets ray0 + delta ray_dir */
};

static int parse_obstacle(const char *name, double eps, double inradius, struct obstacle *o)
{
  memset(o, 0, sizeof *o);
  if (strcmp(name, "corner") == 0) {
    /* point_corner: the L's corner at the origin, sides x = 0 and y = 0 (normals +x, +y), point at 1 + r */
    o->n = 2;
    o->nrm[0] = 1.0, o->nrm[3] = 1.0;
    o->off[0] = o->off[1] = point_r;
    o->start[0] = o->start[1] = 1.0 + point_r;
    o->lo[0] = o->lo[1] = point_r - 1.5 * eps;
    o->hi[0] = o->hi[1] = point_r + 0.5 * eps;
    o->area = 1.5 * eps * 1.5 * eps;
    o->ray0[0] = point_r - eps, o->ray0[1] = point_r;
    o->ray_dir[1] = 1.0;
    return 0;
  }
  char *end = NULL;
  long n = strncmp(name, "poly", 4) == 0 ? strtol(name + 4, &end, 10) : 0;
  if (!end || *end || n < 3 || n > 64) return 1;
  double rho = inradius * eps + point_r, R = rho / cos(M_PI / (double)n);
  o->n = (int)n;
  for (int k = 0; k < o->n; k++) {
    double a = -0.5 * M_PI + (2.0 * k + 2.0) * M_PI / (double)n; /* side k's normal (scene_point_polygon) */
    o->nrm[2 * k] = cos(a), o->nrm[2 * k + 1] = sin(a);
    o->off[k] = rho;
  }
  o->start[0] = 0.0, o->start[1] = 1.0;
  o->lo[0] = o->lo[1] = -R;
  o->hi[0] = o->hi[1] = R;
  o->area = (double)n * rho * rho * tan(M_PI / (double)n);
  o->ray0[1] = -rho; /* the bottom side's midpoint (normal -y) */
  o->ray_dir[1] = -1.0;
  return 0;
}

static double max_gap(const struct obstacle *o, const double c[2], double *d)
{
  double top = -INFINITY;
  for (int i = 0; i < o->n; i++) {
    d[i] = o->nrm[2 * i] * c[0] + o->nrm[2 * i + 1] * c[1] - o->off[i];
    top = fmax(top, d[i]);
  }
  return top;
}

enum form_kind { FORM_SUM35, FORM_SUM30, FORM_MAX, FORM_ST };

/* The form's own region: is a free flight to c (no impulse) a solution? (eqs. 24/30, 35, 12/29) slack: a
 * length by which the inequality may fail (an end within the tolerance of its target counts as free). */
static int region_free(const struct obstacle *o, enum form_kind k, double eps, const double c[2],
                       double slack)
{
  double d[64], top = max_gap(o, c, d), s = 0.0;
  if (k == FORM_MAX) return top >= -slack;
  for (int i = 0; i < o->n; i++)
    s += fmax(0.0, d[i] + eps);
  return s >= (k == FORM_SUM30 ? 1.0 : (double)(o->n - 1)) * eps - slack;
}

struct step_ctx {
  struct world *w;
  struct formulation *f;
  struct solver *s;
  struct contact_set cs;
  const struct obstacle *o;
  double seconds;
  long solves, unsolved;
};

/* One step aimed at target t: 0 solved (end in c_end), 1 unsolved, -1 internal error. */
static int step_to(struct step_ctx *x, const double t[2], double c_end[2])
{
  struct body *b = &x->w->bodies[1];
  struct cp_problem *p = NULL;
  double *z = NULL, nu[3] = {0, 0, 0}, pn[64];
  int rc = -1;
  b->v[0] = (t[0] - x->o->start[0]) / step_h;
  b->v[1] = (t[1] - x->o->start[1]) / step_h;
  if (x->f->type->assemble(x->f, x->w, &x->cs, step_h, &p)) goto cleanup;
  z = calloc((size_t)p->n, sizeof *z);
  struct solve_result r;
  if (!z || solver_solve(x->s, p, z, &r)) goto cleanup;
  x->solves++;
  x->seconds += r.call_seconds > 0.0 ? r.call_seconds : r.seconds;
  rc = 1;
  if (r.status != SOLVE_CONVERGED || r.no_answer) {
    x->unsolved++;
    goto cleanup;
  }
  if (x->f->type->recover(x->f, x->w, &x->cs, step_h, z, nu, pn)) {
    rc = -1;
    goto cleanup;
  }
  c_end[0] = x->o->start[0] + step_h * nu[0];
  c_end[1] = x->o->start[1] + step_h * nu[1];
  rc = 0;
cleanup:
  free(z);
  cp_destroy(&p);
  return rc;
}

/* The grid's targets inside the obstacle (cell centres, offset off the symmetric lines x + y = const). */
static int scan_grid(struct step_ctx *x, enum form_kind k, double eps, int grid, struct sweep_row *row)
{
  const struct obstacle *o = x->o;
  double cell[2] = {(o->hi[0] - o->lo[0]) / grid, (o->hi[1] - o->lo[1]) / grid}, d[64];
  double mistaken = 0.0, predicted = 0.0, depth = 0.0, tol = 1e-3 * eps;
  long outside = 0;
  for (int i = 0; i < grid; i++)
    for (int j = 0; j < grid; j++) {
      double t[2] = {o->lo[0] + (i + 0.5414) * cell[0], o->lo[1] + (j + 0.5414) * cell[1]}, c[2];
      if (max_gap(o, t, d) >= -tol) continue; /* inside by more than the tolerance */
      int pred = region_free(o, k, eps, t, 0.0), st = step_to(x, t, c);
      if (st < 0) return 1;
      if (st) continue;
      /* accepted: the step lets the point fly freely into the obstacle (no impulse moved it) */
      double g = max_gap(o, c, d);
      int accepted = hypot(c[0] - t[0], c[1] - t[1]) <= tol;
      if (accepted) mistaken += cell[0] * cell[1];
      if (g < -tol) depth = fmax(depth, -g);
      if (k != FORM_ST) {
        predicted += pred ? cell[0] * cell[1] : 0.0;
        outside += accepted && !region_free(o, k, eps, t, 2.0 * tol);
      }
    }
  sweep_row_set(row, "mistaken_area", mistaken);
  sweep_row_set(row, "mistaken_share", mistaken / o->area);
  sweep_row_set(row, "max_depth", depth);
  if (k != FORM_ST) {
    sweep_row_set(row, "predicted_area", predicted);
    sweep_row_set(row, "predicted_share", predicted / o->area);
    sweep_row_set_int(row, "outside_region", outside);
  }
  return 0;
}

/* Targets along the probe ray, 0 < delta <= n eps: the farthest one the step moves (phantom contact). */
static int scan_ray(struct step_ctx *x, enum form_kind k, double eps, int grid, struct sweep_row *row)
{
  const struct obstacle *o = x->o;
  double far = 0.0, pred_far = 0.0, span = fmax(2.0, (double)o->n) * eps, tol = 1e-3 * eps;
  for (int i = 1; i <= grid; i++) {
    double delta = span * i / grid, c[2];
    double t[2] = {o->ray0[0] + delta * o->ray_dir[0], o->ray0[1] + delta * o->ray_dir[1]};
    int st = step_to(x, t, c);
    if (st < 0) return 1;
    if (!st && hypot(c[0] - t[0], c[1] - t[1]) > tol) far = delta;
    if (!region_free(o, k, eps, t, 0.0)) pred_far = delta;
  }
  sweep_row_set(row, "phantom_offset", far);
  if (k != FORM_ST) sweep_row_set(row, "predicted_offset", pred_far);
  return 0;
}

/* The -form value's index (enum form_kind), -1 for none. */
static int form_index(const char *form)
{
  static const char *const names[] = {"sum_eq35", "sum_eq30", "max", "stewart_trinkle"};
  for (int i = 0; i < 4; i++)
    if (strcmp(form, names[i]) == 0) return i;
  return -1;
}

/* The form with the paper's constants and Egan's forms as printed (no passive sides); set here, so a run's
 * -nc_* option is unread, hence refused. */
static int make_form(const char *form, double eps, enum form_kind *k, struct formulation **f, char *msg,
                     size_t len)
{
  static const char *const types[] = {"nonconvex_sum", "nonconvex_sum", "nonconvex_max", "stewart_trinkle"};
  int i = form_index(form);
  if (i < 0) return snprintf(msg, len, "-form %s: sum_eq35, sum_eq30, max or stewart_trinkle", form), 1;
  *k = (enum form_kind)i;
  char e[64];
  snprintf(e, sizeof e, "%.17g", eps);
  if (formulation_create(types[i], f, msg, len)) return 1;
  if (i <= FORM_SUM30)
    return formulation_set_option(*f, "nc_epsilon", e, msg, len) ||
           formulation_set_option(*f, "nc_sum_rhs", i == FORM_SUM30 ? "eq30" : "eq35", msg, len) ||
           formulation_set_option(*f, "nc_passive_sides", "0", msg, len);
  if (i == FORM_MAX)
    return formulation_set_option(*f, "nc_gamma", "100", msg, len) ||
           formulation_set_option(*f, "nc_passive_sides", "0", msg, len);
  return 0;
}

static int run(const struct sweep_task *task, void *vctx, struct sweep_row *row)
{
  const struct regions_ctx *ctx = vctx;
  const char *obs = sweep_task_string(task, "obstacle"), *form = sweep_task_string(task, "form");
  double eps = sweep_task_real(task, "eps");
  struct obstacle o;
  struct step_ctx x = {.o = &o};
  enum form_kind k = FORM_ST;
  char msg[256] = "";
  int rc = 1;
  if (parse_obstacle(obs, eps, ctx->inradius, &o)) {
    fprintf(stderr, "error: -obstacle %s: corner or polyN with N = 3..64\n", obs);
    return 1;
  }
  x.w = o.n == 2 ? sweep_task_world(task, "point_corner:radius=%.17g", point_r)
                 : sweep_task_world(task, "point_polygon:sides=%d:inradius=%.17g:radius=%.17g", o.n,
                                    ctx->inradius * eps, point_r);
  if (!x.w || make_form(form, eps, &k, &x.f, msg, sizeof msg) ||
      solver_create(sweep_task_string(task, "solver"), &x.s, msg, sizeof msg) ||
      solver_set_from_options(x.s, task->options, msg, sizeof msg) ||
      world_detect(x.w, x.w->threshold, &x.cs)) {
    if (msg[0]) fprintf(stderr, "error: %s\n", msg);
    goto cleanup;
  }
  if (scan_grid(&x, k, eps, ctx->grid, row) || scan_ray(&x, k, eps, ctx->grid, row)) goto cleanup;
  sweep_row_set_int(row, "sides", x.f->rows.normal);
  if (o.n == 2 && k != FORM_ST) sweep_row_set(row, "analytic_area", k == FORM_MAX ? 0.0 : 0.5 * eps * eps);
  sweep_row_set_int(row, "unsolved", x.unsolved);
  sweep_row_set_int(row, "solves", x.solves);
  sweep_row_set(row, "solve_seconds", x.seconds);
  sweep_row_status(row, x.unsolved ? "unsolved_targets" : "converged");
  rc = 0;
cleanup:
  contact_set_free(&x.cs);
  solver_destroy(&x.s);
  formulation_destroy(&x.f);
  world_destroy(&x.w);
  return rc;
}

static int check_axes(void *vctx, const int *n_values, char *const *const *values)
{
  const struct regions_ctx *ctx = vctx;
  struct obstacle o;
  for (int i = 0; i < n_values[0]; i++)
    if (parse_obstacle(values[0][i], 0.02, ctx->inradius, &o)) {
      fprintf(stderr, "error: -obstacle %s: corner or polyN with N = 3..64\n", values[0][i]);
      return 1;
    }
  for (int i = 0; i < n_values[2]; i++)
    if (form_index(values[2][i]) < 0) {
      fprintf(stderr, "error: -form %s: sum_eq35, sum_eq30, max or stewart_trinkle\n", values[2][i]);
      return 1;
    }
  return 0;
}

static const struct sweep_driver driver = {
    .experiment = "nonconvex_regions",
    .title = "the free space of the nonconvex forms: capped corner and many-sided groups (Egan, Berard & "
             "Trinkle Figs. 4, 7)",
    .help =
        "Status converged: every target's step solved; unsolved_targets otherwise (counted in unsolved).\n",
    .options = options,
    .n_options = sizeof options / sizeof options[0],
    .settings_size = sizeof(struct regions_ctx),
    .axes = axes,
    .n_axes = sizeof axes / sizeof axes[0],
    .columns = columns,
    .n_columns = sizeof columns / sizeof columns[0],
    .plot_x = "obstacle",
    .series = "form,solver",
    .check_axes = check_axes,
    .run = run,
};

int main(int argc, char **argv) { return sweep_main(&driver, argc, argv); }
