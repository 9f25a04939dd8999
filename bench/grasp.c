/* NAME    bench_grasp — the Brost–Christiansen grasp study in simulation: a parallel-jaw gripper closes on
 *         the lock piece from (x, y) relative to its centre; one row per trial.
 * PURPOSE for each (friction range, x, y, seed): draw the unknown quantities from the task's own RNG (the
 *         support tripod under the part, the support and gripper friction coefficients in the range),
 *         close the jaws by force control until everything is at rest (or the time limit), classify the
 *         grasp: the outcome column (outer_teeth: held by the outer edges of the outer-most teeth, the
 *         experiment's success; other_teeth, round, diametric, lost), each outcome also a 0/1 share column;
 *         status ok when the trial was simulated to its end, solve_failed when a step's solve failed. The
 *         success probability per (x, y) is the success share (Wilson 95 % interval in the summary);
 *         bench_grasp_map adds the sweet spot and the maps.
 * USAGE   bench_grasp [-options_file bench/experiments/grasp.opts] [-x -9.5,...] [-y -19.5,...]
 *         [-friction medium,high] [-friction_support LO:HI,...] [-friction_gripper LO:HI,...]
 *         [-close_force 0.5,1,2] [-seeds 126] [-cp_solver lemke] [-h 1e-3] ...
 *         [sweep options: -out, -resume, -slice, ... see -help]
 * PAPER   Chakraborty, Berard, Akella & Trinkle, Sec. 6.4, eqs. (56)–(61), Fig. 10; the 2.5D model of
 *         Berard et al., ICRA 2007 (../shared/notes/grasp-study.md). */
#include "grasp.h"

#include "engine/sweep.h"
#include "engine/sweep_observers.h"
#include "grasp_run.h"
#include "scene.h"

#include <math.h>
#include <petscsys.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define X_CELLS "-9.5,-8.5,-7.5,-6.5,-5.5,-4.5,-3.5,-2.5,-1.5,-0.5,0.5,1.5,2.5,3.5,4.5,5.5,6.5,7.5,8.5,9.5"
#define Y_CELLS                                                                                              \
  "-19.5,-18.5,-17.5,-16.5,-15.5,-14.5,-13.5,-12.5,-11.5,-10.5,-9.5,-8.5,-7.5,-6.5,-5.5,-4.5,-3.5,-2.5,"     \
  "-1.5,-0.5"

/* What geometric_implicit needs on this world (each a default the run may override): the NCP in
 * equilibrated units (impulses of 1e-5 N s beside centimetre lengths: in SI units fb_newton stalls at the
 * first finger contact), a creep of 1e-3 close_speed (the split of a held part's friction impulses among
 * the support points and the fingers is statically indeterminate without it), and a failed step taken
 * again cold, then halved (the first finger contact from the last step's answers, docs/grasp.md). On the
 * quick grid's slice 0/5 (96 trials, fb_newton): 93 trials solved with all four, 78 without the cold retry
 * (in SI units fb_newton stalls at the first finger contact: test_step_halving). */
#define GRASP_DEFAULTS                                                                                       \
  "-step_halvings 8 -step_cold_retry 1 -geometric_implicit_equilibrate 1 -geometric_implicit_creep 2e-5"

/* The axes' places (check_axes reads their values by index). */
enum { AX_SUPPORT, AX_GRIPPER, AX_FORCE, AX_FRICTION, AX_Y, AX_X, AX_SEED, AX_FORMULATION, AX_SOLVER };

/* The sensitivity axes (the friction bounds per coefficient, the jaw force) are method axes on purpose: they
 * stay out of the task's seed, so every setting of them sees the same tripods and the same friction
 * quantiles (grasp_draw's common random numbers), and a difference between settings is the setting's, not
 * the draws'; adding them left every former task's seed, hence its draws, as it was. */
static const struct sweep_axis axes[] = {
    {"friction_support", NULL, SWEEP_STRING, NULL,
     "range of the support friction coefficient, drawn uniform on (LO,HI]: LO:HI, a named range (medium, "
     "high), or friction: the range the friction axis names (the default; not in the task's seed: every "
     "range "
     "sees the same draws)",
     0, SWEEP_METHOD, NULL},
    {"friction_gripper", NULL, SWEEP_STRING, NULL,
     "range of the gripper (fingertip) friction coefficient: as -friction_support (default friction)", 0,
     SWEEP_METHOD, NULL},
    {"close_force", NULL, SWEEP_REAL, "1",
     "force limit of each jaw's controller [N] (neither paper gives it; not in the task's seed)", 0,
     SWEEP_METHOD, "(0,inf)"},
    {"friction", NULL, SWEEP_STRING, NULL,
     "named range of each friction coefficient whose own axis (-friction_support, -friction_gripper) is "
     "not given: medium (0.33,0.66] or high (0.66,0.99]; none when both are (default medium,high, or none "
     "when both coefficient axes are given)",
     0, SWEEP_INSTANCE, NULL},
    {"y", NULL, SWEEP_REAL, Y_CELLS,
     "gripper centre above the part's centre: the 1 mm patches of the paper's 20 mm box [mm]", 0,
     SWEEP_INSTANCE, "[-60,60]"},
    {"x", NULL, SWEEP_REAL, X_CELLS, "gripper centre right of the part's centre [mm]", 0, SWEEP_INSTANCE,
     "[-60,60]"},
    {SWEEP_SEEDS_AXIS, NULL, SWEEP_INT, "126", "trials per cell (each its own draws)", 1, SWEEP_INSTANCE,
     NULL},
    {"formulation", NULL, SWEEP_FORMULATION, "stewart_trinkle",
     "a registered formulation that knows support friction and motors, stepped by the one run loop on "
     "scene grasp (stewart_trinkle: the LCP on the exact shapes' contacts at the step's start; "
     "geometric_implicit: the paper's mixed NCP, closest points as unknowns, needs a solver that takes "
     "callback problems, e.g. fb_newton)",
     0, SWEEP_METHOD, NULL},
    {"solver", "-cp_solver", SWEEP_SOLVER, "lemke", "solvers", 0, SWEEP_METHOD, NULL},
};

static const struct sweep_column columns[] = {
    {"outcome", SWEEP_INFO, "outer_teeth (success), other_teeth, round, diametric, lost or solver_failure",
     .floor = 0},
    {"success", SWEEP_METRIC_HIGHER, "1 when held by the outer edges of the outer-most teeth", .floor = 0,
     .share = 1},
    {"other_teeth", SWEEP_METRIC, "1 when held with a finger on a tooth, not the goal", .floor = 0,
     .share = 1},
    {"round", SWEEP_METRIC, "1 when held on the round part, not diametrically", .floor = 0, .share = 1},
    {"diametric", SWEEP_METRIC, "1 when held on the round part at nearly opposite points", .floor = 0,
     .share = 1},
    {"lost", SWEEP_METRIC, "1 when the jaws closed without holding the part", .floor = 0, .share = 1},
    {"at_rest", SWEEP_INFO, "1 when the trial ended at rest (else the time limit or the jaws met)",
     .floor = 0},
    {"mu_support", SWEEP_INFO, "drawn support friction coefficient", .floor = 0},
    {"mu_grip", SWEEP_INFO, "drawn gripper friction coefficient", .floor = 0},
    {"tripod", SWEEP_INFO, "drawn support points in the part's frame, x:y;x:y;x:y [mm]", .floor = 0},
    {"sim_time", SWEEP_INFO, "simulated time at the end [s]", .floor = 0},
    {"skipped_time", SWEEP_INFO, "of which skipped: jaws closing freely, the part still (no steps) [s]",
     .floor = 0},
    {"part_dx", SWEEP_INFO, "part's displacement along x at the end [mm]", .floor = 0},
    {"part_dy", SWEEP_INFO, "part's displacement along y at the end [mm]", .floor = 0},
    {"part_dtheta", SWEEP_INFO, "part's rotation at the end [rad]", .floor = 0},
    {"opening", SWEEP_INFO, "final distance between the fingers' inside edges [mm]", .floor = 0},
    {"contacts", SWEEP_INFO, "loaded contacts at the end: R or L, then d (disc) or the tooth 1..6",
     .floor = 0},
    {"steps", SWEEP_COST, "time steps taken", .count = 1},
    {"cold_retries", SWEEP_INFO,
     "failed (half) steps solved when taken again from the formulation's cold start (-step_cold_retry)",
     .floor = 0},
    {"halved", SWEEP_INFO,
     "steps (or half steps) whose solve failed, taken again as two halves (-step_halvings; after the cold "
     "retry)",
     .floor = 0},
    {"fallbacks", SWEEP_INFO,
     "steps that failed their retries, solved when taken again whole by the fallback solver "
     "(-step_fallback_solver)",
     .floor = 0},
    {"rows_mean", SWEEP_COST, "mean rows of the LCP per step", .count = 1},
    {"pivots_mean", SWEEP_COST, "mean solver iterations (pivots) per step", .count = 1},
    {"solve_seconds", SWEEP_COST, "wall time in the solver, whole trial [s]", .floor = 0},
    {"trial_seconds", SWEEP_COST, "wall time of the trial (draws, steps, classification) [s]", .floor = 0},
    {"trial_cpu_seconds", SWEEP_COST,
     "CPU time of the trial (the machine may be shared: wall time then overstates the cost) [s]", .floor = 0},
};

struct grasp_ctx {
  double mass, jaw_mass, close_speed, damping, g;
  int n_dirs;
  /* which friction axes took their default (axis_default): the run did not give them */
  int friction_defaulted, support_defaulted, gripper_defaulted;
  struct grasp_trial_opts o;
  PetscOptions run_options; /* setup's: which options the run gave, for check_axes */
};

static const struct option_decl options[] = {
    {"mass", OPT_REAL, offsetof(struct grasp_ctx, mass), "0.03", "(0,inf)",
     "part's mass [kg] (a 41 mm steel disc 3 mm thick); the inertia is that of a uniform disc"},
    {"jaw_mass", OPT_REAL, offsetof(struct grasp_ctx, jaw_mass), "0.05", "(0,inf)", "each jaw's mass [kg]"},
    {"close_speed", OPT_REAL, offsetof(struct grasp_ctx, close_speed), "0.02", "(0,inf)",
     "commanded closing speed of each jaw [m/s] (neither paper gives it)"},
    {"support_damping", OPT_REAL, offsetof(struct grasp_ctx, damping), "0", "[0,inf)",
     "linear viscous friction of the support on the part [N s/m]"},
    {"g", OPT_REAL, offsetof(struct grasp_ctx, g), "9.81", "(0,inf)",
     "gravity [m/s^2]: sets the tripod's normal forces (statics), out of the plane of motion"},
    {"support_directions", OPT_INT, offsetof(struct grasp_ctx, n_dirs), "8", "[3,16]",
     "friction directions per support point (the polygonal friction disc)"},
    {"h", OPT_REAL, offsetof(struct grasp_ctx, o.h), "1e-3", "(0,0.1]", "time step [s]"},
    {"t_max", OPT_REAL, offsetof(struct grasp_ctx, o.t_max), "2", "(0,inf)",
     "simulated time limit of a trial after the first touch can happen [s]"},
    {"rest_speed", OPT_REAL, offsetof(struct grasp_ctx, o.rest_speed), "1e-5", "(0,inf)",
     "at rest: every speed (part, its rim's speed of rotation, jaws) below this [m/s]"},
    {"rest_steps", OPT_INT, offsetof(struct grasp_ctx, o.rest_steps), "10", "[1,100000]",
     "... for this many consecutive steps, a finger loaded"},
    {"margin", OPT_REAL, offsetof(struct grasp_ctx, o.margin), "5e-4", "(0,inf)",
     "finger-part contacts enter the LCP when closer than this [m]"},
    {"s_min", OPT_REAL, offsetof(struct grasp_ctx, o.s_min), "5e-4", "[0,inf)",
     "half-opening at which the fingers meet: the trial ends, nothing held [m]"},
    {"start_clear", OPT_REAL, offsetof(struct grasp_ctx, o.start_clear), "2e-4", "(0,inf)",
     "the jaws start this far outside the part (the free closing before is skipped) [m]"},
};

/* A named range (medium, high) into r: 0, or 1 for any other name. */
static int friction_named(const char *name, double r[2])
{
  if (strcmp(name, "medium") == 0) {
    r[0] = 0.33, r[1] = 0.66;
    return 0;
  }
  if (strcmp(name, "high") == 0) {
    r[0] = 0.66, r[1] = 0.99;
    return 0;
  }
  return 1;
}

/* A coefficient axis' value into r: LO:HI (0 <= LO < HI, finite), a named range, or "friction" (the named
 * range of the friction axis' value `named`). 0, or 1 when it is none of these. */
static int friction_bounds(const char *value, const char *named, double r[2])
{
  if (strcmp(value, "friction") == 0) return friction_named(named, r);
  if (!friction_named(value, r)) return 0;
  char *end = NULL;
  r[0] = strtod(value, &end);
  if (end == value || *end != ':') return 1;
  const char *rest = end + 1;
  r[1] = strtod(rest, &end);
  return end == rest || *end || !isfinite(r[0]) || !isfinite(r[1]) || r[0] < 0 || r[1] <= r[0];
}

/* A registered formulation that can step the grasp world: 0, or 1 with a message. */
static int registry_formulation_ok(const char *name)
{
  struct world *w = NULL;
  char msg[256];
  const struct formulation_type *t = formulation_find(name);
  if (!t) {
    fprintf(stderr, "error: -formulation %s: not a registered formulation\n", name);
    return 1;
  }
  if (scene_create_from_spec("grasp", NULL, &w, msg, sizeof msg)) {
    fprintf(stderr, "error: the grasp world: %s\n", msg);
    return 1;
  }
  struct formulation f = {.type = t};
  const int ok = formulation_supports(&f, w);
  world_destroy(&w);
  if (!ok)
    fprintf(stderr,
            "error: -formulation %s cannot step the grasp world (support friction and a "
            "motor): stewart_trinkle and geometric_implicit can\n",
            name);
  return !ok;
}

static double cpu_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int setup(void *vctx, PetscOptions run_options)
{
  struct grasp_ctx *ctx = vctx;
  ctx->run_options = run_options;
  return 0;
}

/* The defaults of the friction axes, which also record that the run did not give them (the engine asks only
 * then). The coefficient axes come first: the friction axis names the range of the coefficients without
 * an axis of their own, so with both given it names nothing and its default is none instead of both named
 * ranges (which would run every trial twice with the same bounds). */
static const char *axis_default(void *vctx, const char *axis)
{
  struct grasp_ctx *ctx = vctx;
  if (strcmp(axis, "friction_support") == 0) {
    ctx->support_defaulted = 1;
    return "friction";
  }
  if (strcmp(axis, "friction_gripper") == 0) {
    ctx->gripper_defaulted = 1;
    return "friction";
  }
  if (strcmp(axis, "friction") != 0) return NULL;
  ctx->friction_defaulted = 1;
  return ctx->support_defaulted || ctx->gripper_defaulted ? "medium,high" : "none";
}

/* The friction axes' values, each alone and against each other: 0, or 1 with a message. One meaning per
 * option: -friction names the range of a coefficient whose own axis says "friction" (the default), so a
 * run that gives -friction while no coefficient takes it, or a coefficient "friction" while -friction is
 * none, is refused rather than silently read one way. */
static int check_friction(const struct grasp_ctx *ctx, const int *n_values, char *const *const *values)
{
  double r[2];
  for (int i = 0; i < n_values[AX_FRICTION]; i++)
    if (strcmp(values[AX_FRICTION][i], "none") != 0 && friction_named(values[AX_FRICTION][i], r)) {
      fprintf(stderr,
              "error: -friction %s: the ranges are medium (0.33,0.66] and high (0.66,0.99], or none\n",
              values[AX_FRICTION][i]);
      return 1;
    }
  int takes_named = 0;
  for (int k = AX_SUPPORT; k <= AX_GRIPPER; k++)
    for (int i = 0; i < n_values[k]; i++) {
      const char *v = values[k][i];
      if (strcmp(v, "friction") == 0) {
        takes_named = 1;
        continue;
      }
      if (friction_bounds(v, "", r)) {
        fprintf(stderr, "error: %s %s: give LO:HI (0 <= LO < HI), medium, high or friction\n",
                k == AX_SUPPORT ? "-friction_support" : "-friction_gripper", v);
        return 1;
      }
    }
  if (takes_named && sweep_values_have(n_values, values, AX_FRICTION, "none")) {
    fprintf(stderr, "error: -friction none names no range, but a coefficient axis takes the friction axis' "
                    "range (value friction, the default of -friction_support and -friction_gripper)\n");
    return 1;
  }
  if (!takes_named && !ctx->friction_defaulted &&
      !(n_values[AX_FRICTION] == 1 && strcmp(values[AX_FRICTION][0], "none") == 0)) {
    fprintf(stderr, "error: -friction names the range of a coefficient without an axis of its own, but "
                    "-friction_support and -friction_gripper are both given: give -friction or both, not "
                    "all three\n");
    return 1;
  }
  return 0;
}

/* The friction and formulation axes are string axes: their values are checked here, before any task, with
 * the options only one formulation reads. */
static int check_axes(void *vctx, const int *n_values, char *const *const *values)
{
  const struct grasp_ctx *ctx = vctx;
  if (check_friction(ctx, n_values, values)) return 1;
  int n_pyramid = 0; /* formulations that read the world's support directions */
  for (int i = 0; i < n_values[AX_FORMULATION]; i++) {
    const char *form = values[AX_FORMULATION][i];
    if (registry_formulation_ok(form)) return 1;
    n_pyramid += strcmp(form, "geometric_implicit") != 0;
  }
  PetscBool set = PETSC_FALSE;
  PetscOptionsHasName(ctx->run_options, NULL, "-support_directions", &set);
  if (set && !n_pyramid) {
    fprintf(stderr,
            "error: -support_directions sets the friction pyramid of the formulations that "
            "linearise it; geometric_implicit's support friction is the ellipse (eq. 5), and no other "
            "is run\n");
    return 1;
  }
  return 0;
}

/* The trial on scene grasp (the task's draws inline) with the task's formulation, by the run loop. */
static int run_registry(const struct sweep_task *task, const struct grasp_ctx *ctx,
                        const struct grasp_params *p, double x, double y, struct grasp_result *r)
{
  struct grasp_world_settings sc = {.x = x,
                                    .y = y,
                                    .mass = p->mass,
                                    .jaw_mass = p->jaw_mass,
                                    .close_speed = p->close_speed,
                                    .close_force = p->close_force,
                                    .damping = p->support_damping,
                                    .g = p->g,
                                    .dirs = p->n_dirs,
                                    .mu_support = p->mu_support,
                                    .mu_grip = p->mu_grip,
                                    .start_clear = ctx->o.start_clear,
                                    .margin = ctx->o.margin};
  for (int i = 0; i < 3; i++)
    sc.tripod[i][0] = 1e3 * p->tripod[i][0], sc.tripod[i][1] = 1e3 * p->tripod[i][1];
  struct world *w = sweep_task_world(
      task,
      "grasp:x=%.17g:y=%.17g:mass=%.17g:jaw_mass=%.17g:close_speed=%.17g:close_force=%.17g:"
      "support_damping=%.17g:g=%.17g:support_directions=%d:mu_support=%.17g:mu_grip=%.17g:tripod1_x=%.17g:"
      "tripod1_y=%.17g:tripod2_x=%.17g:tripod2_y=%.17g:tripod3_x=%.17g:tripod3_y=%.17g:start_clear=%.17g:"
      "margin=%.17g",
      sc.x, sc.y, sc.mass, sc.jaw_mass, sc.close_speed, sc.close_force, sc.damping, sc.g, sc.dirs,
      sc.mu_support, sc.mu_grip, sc.tripod[0][0], sc.tripod[0][1], sc.tripod[1][0], sc.tripod[1][1],
      sc.tripod[2][0], sc.tripod[2][1], sc.start_clear, sc.margin);
  struct simulation sim = {0};
  struct run_observer obs[GRASP_RUN_MORE] = {{0}};
  int n_obs = 0;
  if (simulation_open(&sim, w, sweep_task_string(task, "formulation"), sweep_task_string(task, "solver"),
                      task->options) ||
      sweep_observers_standard(task, obs, &n_obs, GRASP_RUN_MORE)) {
    run_observers_destroy(obs, n_obs);
    simulation_close(&sim);
    return 1;
  }
  const int rc = grasp_run_trial(&sim, &sc, &ctx->o, obs, n_obs, r);
  run_observers_destroy(obs, n_obs);
  simulation_close(&sim);
  if (rc) fprintf(stderr, "bench_grasp: task %ld: %s\n", task->id, r->message);
  return rc;
}

static int run(const struct sweep_task *task, void *vctx, struct sweep_row *row)
{
  const struct grasp_ctx *ctx = vctx;
  const double t0 = solver_wall_time(), c0 = cpu_seconds();
  const char *named = sweep_task_string(task, "friction");
  double support[2], grip[2];
  if (friction_bounds(sweep_task_string(task, "friction_support"), named, support) ||
      friction_bounds(sweep_task_string(task, "friction_gripper"), named, grip)) {
    fprintf(stderr, "bench_grasp: task %ld: bad friction bounds (check_axes lets none through)\n", task->id);
    return 1;
  }
  struct grasp_params p = {.mass = ctx->mass,
                           .inertia = 0.5 * ctx->mass * GRASP_DISC_RADIUS * GRASP_DISC_RADIUS,
                           .jaw_mass = ctx->jaw_mass,
                           .close_speed = ctx->close_speed,
                           .close_force = sweep_task_real(task, "close_force"),
                           .support_damping = ctx->damping,
                           .g = ctx->g,
                           .n_dirs = ctx->n_dirs};
  grasp_draw(task->rng, support, grip, &p);
  struct grasp_result r;
  const double x = sweep_task_real(task, "x"), y = sweep_task_real(task, "y");
  if (run_registry(task, ctx, &p, x, y, &r)) return 1;
  char text[160];
  const char *name = grasp_outcome_name(r.outcome);
  /* the status says whether the trial was simulated to its end; where the part ended is its outcome */
  sweep_row_status(row, r.outcome != GRASP_SOLVER_FAILURE  ? "ok"
                        : r.status == SOLVE_NOT_APPLICABLE ? "not_applicable"
                                                           : "solve_failed");
  sweep_row_set_text(row, "outcome", name);
  if (r.outcome != GRASP_SOLVER_FAILURE) {
    const char *share[] = {"success", "other_teeth", "round", "diametric", "lost"};
    const enum grasp_outcome of[] = {GRASP_OUTER_TEETH, GRASP_OTHER_TEETH, GRASP_ROUND, GRASP_DIAMETRIC,
                                     GRASP_LOST};
    for (int k = 0; k < 5; k++)
      sweep_row_set_int(row, share[k], r.outcome == of[k]);
  }
  sweep_row_set_int(row, "at_rest", r.at_rest);
  sweep_row_set(row, "mu_support", p.mu_support);
  sweep_row_set(row, "mu_grip", p.mu_grip);
  snprintf(text, sizeof text, "%.4g:%.4g;%.4g:%.4g;%.4g:%.4g", 1e3 * p.tripod[0][0], 1e3 * p.tripod[0][1],
           1e3 * p.tripod[1][0], 1e3 * p.tripod[1][1], 1e3 * p.tripod[2][0], 1e3 * p.tripod[2][1]);
  sweep_row_set_text(row, "tripod", text);
  sweep_row_set(row, "sim_time", r.t);
  sweep_row_set(row, "skipped_time", r.skipped);
  sweep_row_set(row, "part_dx", 1e3 * (r.q[0] + 1e-3 * sweep_task_real(task, "x")));
  sweep_row_set(row, "part_dy", 1e3 * (r.q[1] + 1e-3 * sweep_task_real(task, "y")));
  sweep_row_set(row, "part_dtheta", r.q[2]);
  sweep_row_set(row, "opening", 2e3 * r.q[3]);
  size_t len = 0;
  text[0] = 0;
  for (int k = 0; k < r.n_contacts; k++)
    if (r.contact[k].impulse > 0.01 * p.close_force * ctx->o.h && len + 8 < sizeof text) {
      int w = snprintf(text + len, sizeof text - len, "%s%c", len ? " " : "",
                       r.contact[k].finger > 0 ? 'R' : 'L');
      len += (size_t)w;
      w = r.contact[k].component ? snprintf(text + len, sizeof text - len, "%d", r.contact[k].component)
                                 : snprintf(text + len, sizeof text - len, "d");
      len += (size_t)w;
    }
  sweep_row_set_text(row, "contacts", text);
  sweep_row_set_int(row, "steps", r.steps);
  sweep_row_set_int(row, "cold_retries", r.retries);
  sweep_row_set_int(row, "halved", r.halved);
  sweep_row_set_int(row, "fallbacks", r.fallbacks);
  if (r.steps > 0) {
    sweep_row_set(row, "rows_mean", r.rows_sum / (double)r.steps);
    sweep_row_set(row, "pivots_mean", (double)r.pivots / (double)r.steps);
  }
  sweep_row_set(row, "solve_seconds", r.solve_seconds);
  if (r.message[0]) fprintf(stderr, "bench_grasp: task %ld: %s\n", task->id, r.message);
  sweep_row_set(row, "trial_seconds", solver_wall_time() - t0);
  sweep_row_set(row, "trial_cpu_seconds", cpu_seconds() - c0);
  return 0;
}

static const struct sweep_driver driver = {
    .experiment = "grasp",
    .title =
        "grasping the lock piece: success map (Chakraborty et al. Sec. 6.4, Fig. 10; Brost & Christiansen)",
    .help =
        "Status ok: the trial was simulated to its end (solve_failed: a step's solve failed). Its outcome\n"
        "is a column (outer_teeth = success, other_teeth, round, diametric, lost), each also a 0/1 share\n"
        "column: the summary gives the share per (friction, y, x) with its Wilson 95 % interval (the\n"
        "success share is the success probability); bench_grasp_map RUN_DIR adds the sweet spot and\n"
        "draws the maps.\n"
        "Defaults this driver gives unless the run does (GRASP_DEFAULTS): -step_halvings 8 and\n"
        "-step_cold_retry 1 (every formulation's; Lemke's explicit steps rarely fail, and stewart_trinkle\n"
        "carries nothing for the cold retry to forget),\n"
        "-geometric_implicit_equilibrate 1 and -geometric_implicit_creep 2e-5 (1e-3 of the default\n"
        "-close_speed: the slip sticking friction may have, which picks the statically indeterminate split\n"
        "of a held part's friction impulses).\n",
    .options = options,
    .n_options = sizeof options / sizeof options[0],
    .settings_size = sizeof(struct grasp_ctx),
    .axes = axes,
    .n_axes = sizeof axes / sizeof axes[0],
    .columns = columns,
    .n_columns = sizeof columns / sizeof columns[0],
    .plot_x = "x",
    .series = "friction,y",
    .setup = setup,
    .axis_default = axis_default,
    .check_axes = check_axes,
    .option_defaults = GRASP_DEFAULTS,
    .steps_observed = 1,
    .run = run,
};

int main(int argc, char **argv) { return sweep_main(&driver, argc, argv); }
