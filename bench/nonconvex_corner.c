/* NAME    bench_nonconvex_corner — Egan, Berard & Trinkle Fig. 3: a point mass at a nonconvex corner.
 * PURPOSE for each (case, formulation, solver) build the one-step LCP from the scene (a point mass, m = 1,
 *         at (1, 1) from the corner x = 0 / y = 0 of a static L, h = 2, frictionless; case a: nu = [-2, 0],
 *         no contact; case b: nu = [-2, -1], contact), check that nonconvex_max (gamma = 100) and
 *         nonconvex_sum (eps = 0.02) give exactly the printed B_a, b_a, b_b and B_1, b_1, b_2, solve it,
 *         check the answer independently, and report which of the paper's solutions it is, the impulses,
 *         nu^{l+1} and q^{l+1} = q + h nu^{l+1}. stewart_trinkle shows the standard model's answer.
 * USAGE   bench_nonconvex_corner [-options_file bench/experiments/nonconvex_corner.opts] [-case a,b]
 *         [-formulation nonconvex_max,nonconvex_sum,stewart_trinkle] [-cp_solver all] [sweep options]
 * PAPER   Egan, Berard & Trinkle, Secs. IV-V (eqs. 13-28), Fig. 3, appendix eqs. 32-35. */
#include "engine/sweep.h"
#include "formulation.h"
#include "scenes.h"
#include "testproblems.h"
#include "world_detect.h"

#include <math.h>
#include <petscsys.h>
#include <string.h>

static const struct sweep_axis axes[] = {
    {"case", NULL, SWEEP_STRING, "a,b",
     "Fig. 3 case: a (nu = [-2, 0], no contact), b (nu = [-2, -1], contact)", 0, SWEEP_INSTANCE, NULL},
    {"formulation", NULL, SWEEP_FORMULATION, "nonconvex_max,nonconvex_sum,stewart_trinkle", "formulations", 0,
     SWEEP_METHOD, NULL},
    {"solver", "-cp_solver", SWEEP_SOLVER, "lemke,milp,enum,fb_newton", "solvers", 0, SWEEP_METHOD, NULL},
};

static const struct sweep_column columns[] = {
    {"matches_paper", SWEEP_METRIC_HIGHER,
     "1 if the assembled LCP equals the printed one (nonconvex forms; else empty)", .floor = 0, .share = 1},
    {"end_valid", SWEEP_METRIC_HIGHER,
     "1 if q^{l+1} lies in the free space (max: x >= 0 or y >= 0; sum: also the cap)", .floor = 0,
     .share = 1},
    {"residual", SWEEP_METRIC, "natural-map residual of the answer (the checker's)", .per_step = 1},
    {"lcp_n", SWEEP_INFO, "LCP size", .floor = 0},
    {"solution", SWEEP_INFO, "which printed solution (z_a, z_b1, z_b2, z_b3) or where the point ends",
     .floor = 0},
    {"p1n", SWEEP_INFO, "impulse on the vertical side x = 0 (nonconvex forms)", .floor = 0},
    {"p2n", SWEEP_INFO, "impulse on the horizontal side y = 0 (nonconvex forms)", .floor = 0},
    {"nu_x", SWEEP_INFO, "nu^{l+1} x", .floor = 0},
    {"nu_y", SWEEP_INFO, "nu^{l+1} y", .floor = 0},
    {"q_x", SWEEP_INFO, "q^{l+1} x (the point; the corner is the origin)", .floor = 0},
    {"q_y", SWEEP_INFO, "q^{l+1} y", .floor = 0},
    {"n_solutions", SWEEP_INFO, "enum: every complementary basic solution of the step's LCP", .floor = 0},
    {"end_points", SWEEP_INFO,
     "enum: the distinct q^{l+1} of those solutions (Fig. 9's dots; the summation form's segment ends)",
     .floor = 0},
    {"ends_on_fig9", SWEEP_INFO,
     "enum: 1 if every end is one of Fig. 9's: max the dots (0,0), (0,-1), (-3,0); sum the segments y = 0, "
     "x in [-3,-eps], the cap x + y = -eps, x = 0, y in [-1,-eps] (case a: (-3,1) alone)",
     .floor = 0},
    {"iterations", SWEEP_COST, "solver iterations (pivots)", .count = 1, .per_step = 1},
    {"solve_seconds", SWEEP_COST, "wall time of the task's one solve, solver only (the harness's timing) [s]",
     .floor = 0},
};

static const double point_r = 1.0 / 1024.0; /* a tiny disc: 1 + r - r == 1 exactly */
static const double step_h = 2.0;

/* The paper's solutions by the velocity they give (Sec. IV: z_a, z_b1..z_b3; Sec. V: z_a, z_b1..z_b3). */
static const char *paper_solution(const char *form, int contact, const double nu[2])
{
  static const double max_b[3][2] = {{-0.5, -0.5}, {-0.5, -1.0}, {-2.0, -0.5}};
  static const double sum_b[3][2] = {{-1.5, -0.5}, {-0.505, -0.505}, {-0.5, -1.87}};
  static const char *const names[3] = {"z_b1", "z_b2", "z_b3"};
  const double tol = 1e-4;
  if (!contact) return fabs(nu[0] + 2.0) < tol && fabs(nu[1]) < tol ? "z_a" : NULL;
  const double(*known)[2] = strcmp(form, "nonconvex_max") == 0 ? max_b : sum_b;
  for (int k = 0; k < 3; k++)
    if (fabs(nu[0] - known[k][0]) < tol && fabs(nu[1] - known[k][1]) < tol) return names[k];
  return NULL;
}

/* Is q one of Fig. 9's possible ends (frictionless, case b; case a: the free flight's (-3, 1))? */
static int on_fig9(int is_max, int contact, const double q[2], double eps)
{
  const double tol = 1e-4;
  if (!contact) return fabs(q[0] + 3.0) < tol && fabs(q[1] - 1.0) < tol;
  if (is_max) {
    static const double dots[3][2] = {{0.0, 0.0}, {0.0, -1.0}, {-3.0, 0.0}};
    for (int k = 0; k < 3; k++)
      if (fabs(q[0] - dots[k][0]) < tol && fabs(q[1] - dots[k][1]) < tol) return 1;
    return 0;
  }
  int horizontal = fabs(q[1]) < tol && q[0] >= -3.0 - tol && q[0] <= -eps + tol;
  int vertical = fabs(q[0]) < tol && q[1] >= -1.0 - tol && q[1] <= -eps + tol;
  int cap = fabs(q[0] + q[1] + eps) < tol && q[0] <= tol && q[1] <= tol;
  return horizontal || vertical || cap;
}

/* Fig. 9: every solution enum found, recovered to its end q^{l+1}; the distinct ends as text. */
static int solution_ends(struct formulation *f, struct world *w, struct contact_set *cs,
                         const struct cp_problem *p, const struct solve_result *r, int is_max, int contact,
                         struct sweep_row *row)
{
  char text[512] = "";
  double ends[64][2], nu[3] = {0, 0, 0}, pn[8], eps = 0.02;
  int n_ends = 0, all_on = 1;
  for (int k = 0; k < r->n_solutions; k++) {
    if (f->type->recover(f, w, cs, step_h, r->solutions + (size_t)k * p->n, nu, pn)) return 1;
    const struct body *b = &w->bodies[1];
    double q[2] = {b->x[0] - point_r + step_h * nu[0], b->x[1] - point_r + step_h * nu[1]};
    int seen = 0;
    for (int j = 0; j < n_ends && !seen; j++)
      seen = fabs(ends[j][0] - q[0]) < 1e-6 && fabs(ends[j][1] - q[1]) < 1e-6;
    if (seen || n_ends == 64) continue;
    ends[n_ends][0] = q[0], ends[n_ends][1] = q[1];
    n_ends++;
    all_on = all_on && on_fig9(is_max, contact, q, eps);
    size_t used = strlen(text);
    snprintf(text + used, sizeof text - used, "%s(%.4g %.4g)", used ? " " : "", q[0] + 0.0, q[1] + 0.0);
  }
  sweep_row_set_int(row, "n_solutions", r->n_solutions);
  sweep_row_set_text(row, "end_points", text);
  sweep_row_set_int(row, "ends_on_fig9", all_on);
  return 0;
}

static double max_diff(const struct cp_problem *p, const struct cp_problem *ref)
{
  return !ref || p->n != ref->n ? INFINITY : cp_data_max_diff(p, ref->M, ref->q);
}

static int run(const struct sweep_task *task, void *ctx, struct sweep_row *row)
{
  (void)ctx;
  const char *cs_name = sweep_task_string(task, "case"), *form = sweep_task_string(task, "formulation");
  const char *solver = sweep_task_string(task, "solver");
  int contact = strcmp(cs_name, "b") == 0, rc = 1;
  int is_max = strcmp(form, "nonconvex_max") == 0, is_sum = strcmp(form, "nonconvex_sum") == 0;
  struct world *w =
      sweep_task_world(task, "point_corner:vx=-2:vy=%s:radius=%.17g", contact ? "-1" : "0", point_r);
  struct formulation *f = NULL;
  struct solver *s = NULL;
  struct cp_problem *p = NULL, *ref = NULL;
  struct contact_set cs = {0};
  double *z = NULL, nu[3] = {0, 0, 0}, pn[8];
  char msg[256] = "";
  if (!w || formulation_create(form, &f, msg, sizeof msg) ||
      formulation_set_from_options(f, task->options, msg, sizeof msg) ||
      solver_create(solver, &s, msg, sizeof msg) ||
      solver_set_from_options(s, task->options, msg, sizeof msg)) {
    if (msg[0]) fprintf(stderr, "error: %s\n", msg);
    goto cleanup;
  }
  rc = 0;
  if (!formulation_supports(f, w)) {
    sweep_row_status(row, "not_applicable");
    goto cleanup;
  }
  /* 1 parse/set up: the scene's contacts and the formulation's LCP */
  if (world_detect(w, w->threshold, &cs) || cs.n > 8 || f->type->assemble(f, w, &cs, step_h, &p)) {
    rc = 1;
    goto cleanup;
  }
  sweep_row_set_int(row, "lcp_n", p->n);
  int matches = 1;
  if (is_max || is_sum) {
    ref = is_max ? cp_test_egan_max(-1.5, contact ? -0.5 : 0.5, 100.0)
                 : cp_test_egan_sum(-1.5, contact ? -0.5 : 0.5, 0.01);
    matches = max_diff(p, ref) == 0.0;
    sweep_row_set_int(row, "matches_paper", matches);
  }
  /* 2 solve, judged by the harness's checker */
  z = calloc((size_t)p->n, sizeof *z);
  struct solve_result r;
  if (!z || solver_solve(s, p, z, &r)) {
    rc = 1;
    goto cleanup;
  }
  sweep_row_set(row, "residual", r.residual);
  sweep_row_set_int(row, "iterations", r.iterations);
  sweep_row_set(row, "solve_seconds", r.seconds);
  if (r.status != SOLVE_CONVERGED) {
    sweep_row_status(row, solve_status_name(r.status));
    goto cleanup;
  }
  /* 3 recover and validate: where the point ends */
  if (f->type->recover(f, w, &cs, step_h, z, nu, pn)) {
    rc = 1;
    goto cleanup;
  }
  if ((is_max || is_sum) && r.n_solutions > 0 && solution_ends(f, w, &cs, p, &r, is_max, contact, row)) {
    rc = 1;
    goto cleanup;
  }
  const struct body *b = &w->bodies[1];
  double qx = b->x[0] - point_r + step_h * nu[0], qy = b->x[1] - point_r + step_h * nu[1];
  /* the checker's tolerance (1e-8 x ||q||, ||q|| = 100 for max) lets nu be off by ~1e-6, q by ~h times that
   */
  const double tol = 1e-4, cap = is_sum ? 0.02 : 0.0;
  int valid = qx >= -tol || qy >= -tol || qx + qy >= -cap - tol;
  if (is_max || is_sum) {
    sweep_row_set(row, "p1n", z[p->n - 2]);
    sweep_row_set(row, "p2n", z[p->n - 1]);
  }
  const char *which = is_max || is_sum ? paper_solution(form, contact, nu) : NULL;
  int deflected = fabs(nu[0] - b->v[0]) > tol || fabs(nu[1] - b->v[1]) > tol;
  if (!which)
    which = !valid ? "penetrating"
                   : (fabs(qy) < tol
                          ? "on the horizontal side"
                          : (fabs(qx) < tol ? "on the vertical side" : (deflected ? "deflected" : "free")));
  sweep_row_set_text(row, "solution", which);
  sweep_row_set(row, "nu_x", nu[0]);
  sweep_row_set(row, "nu_y", nu[1]);
  sweep_row_set(row, "q_x", qx);
  sweep_row_set(row, "q_y", qy);
  sweep_row_set_int(row, "end_valid", valid);
  sweep_row_status(row, !matches ? "mismatch" : (valid ? "converged" : "invalid_end"));
cleanup:
  free(z);
  cp_destroy(&p);
  cp_destroy(&ref);
  contact_set_free(&cs);
  solver_destroy(&s);
  formulation_destroy(&f);
  world_destroy(&w);
  return rc;
}

static const struct sweep_driver driver = {
    .experiment = "nonconvex_corner",
    .title = "point mass at a nonconvex corner: printed LCPs and solutions (Egan, Berard & Trinkle Fig. 3)",
    .help =
        "  -nc_gamma G, -nc_epsilon E  default to the paper's 100 and 0.02 here\n"
        "Status converged: solved, the LCP is the printed one (nonconvex forms) and the point ends in the\n"
        "free space; mismatch, invalid_end, or the solver's status otherwise.\n",
    .axes = axes,
    .n_axes = sizeof axes / sizeof axes[0],
    .columns = columns,
    .n_columns = sizeof columns / sizeof columns[0],
    .plot_x = "case",
    .option_defaults =
        "-nc_gamma 100 -nc_epsilon 0.02", /* the paper's constants unless the run gives others */
    .run = run,
};

int main(int argc, char **argv) { return sweep_main(&driver, argc, argv); }
