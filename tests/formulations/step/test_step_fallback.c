/* test_step_fallback.c — the step's fallback solver (-step_fallback_solver, stepper.c: step_with_fallback):
 * a step that the step's solver did not solve with its retries (cold retry, halvings) is taken again whole,
 * from its start, by another solver. On a 3-disc pile where relaxed PGS fails every step with a contact
 * (each of its halves advancing on an approximate answer) Lemke takes each step and the run is Lemke's bit
 * for bit, the physics checks included: the failed halves reported to the substep hook are withdrawn. A
 * solver that gives no answer at all (Lemke on the geometrically implicit NCP of a grasp trial:
 * not_applicable) is replaced step by step and the trial is fb_newton's own; a trial none of whose steps
 * fail gives the same numbers with or without a fallback. A bad name, or the step's solver again, is
 * refused with a message naming the option. (A failed step of the grasp grid that TAO SSILS takes: the
 * paired probe of the grid's slice 0, results/reference/grasp_24seeds_implicit/paired/slice0_failures/;
 * which steps fail there depends on the BLAS kernels, so it is not a test.) */
#include "check.h"
#include "grasp_fixture.h"
#include "physics_check.h"
#include "scenes.h"
#include "simulation.h"
#include "stepper.h"

#include <math.h>
#include <petscsys.h>
#include <string.h>

/* What the substep hook saw: the kept (half) steps' lengths of the current step, and the withdrawals. */
struct substep_sum {
  double h_sum;           /* over the (half) steps reported and not withdrawn in this step */
  long withdrawn;         /* calls with start NULL */
  long steps, mismatched; /* advanced steps; of them, whose kept halves do not add up to h */
};

static int sum_substep(void *vctx, const struct body *start, int nb, double h, const struct step_record *rec)
{
  (void)nb, (void)rec;
  struct substep_sum *c = vctx;
  if (!start) {
    c->h_sum = 0.0;
    c->withdrawn++;
  } else {
    c->h_sum += h;
  }
  return 0;
}

static int sum_before(void *vctx, struct simulation *sim, long k, double h)
{
  (void)k, (void)h;
  struct substep_sum *c = vctx;
  c->h_sum = 0.0;
  stepper_on_substep(sim->st, sum_substep, c);
  return RUN_CONTINUE;
}

static int sum_after(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  (void)k;
  struct substep_sum *c = vctx;
  stepper_on_substep(sim->st, NULL, NULL);
  if (!rec->advanced) return RUN_CONTINUE;
  c->steps++;
  c->mismatched += fabs(c->h_sum - 1e-3) > 1e-15;
  return RUN_CONTINUE;
}

/* One trial of sc with geometric_implicit and solver by the run loop, the substep observer beside the grasp
 * watch. */
static int run_with_sum(const struct grasp_world_settings *sc, const char *solver, const char *const *opts,
                        struct grasp_result *r, struct substep_sum *sum)
{
  const struct grasp_trial_opts o = grasp_fixture_opts();
  struct world *w = NULL;
  char msg[256];
  memset(sum, 0, sizeof *sum);
  if (grasp_world_build(sc, &w, msg, sizeof msg)) {
    CHECK(0, "grasp world: %s", msg);
    return 1;
  }
  PetscOptions po = test_options_object(opts);
  struct simulation sim;
  struct run_observer more = {
      .name = "substeps", .ctx = sum, .before_step = sum_before, .after_step = sum_after};
  int rc = simulation_open(&sim, w, "geometric_implicit", solver, po) ||
           grasp_run_trial(&sim, sc, &o, &more, 1, r);
  if (rc) CHECK(0, "trial at (%g, %g) mm could not run: %s", sc->x, sc->y, r->message);
  simulation_close(&sim);
  PetscOptionsDestroy(&po);
  return rc;
}

/* grasp_fixture_implicit (bench_grasp's defaults for geometric_implicit) with -step_fallback_solver NAME. */
#define WITH_FALLBACK(name)                                                                                  \
  {                                                                                                          \
    "-geometric_implicit_equilibrate", "1", "-geometric_implicit_creep", "2e-5", "-step_halvings", "8",      \
        "-step_cold_retry", "1", "-step_fallback_solver", name, NULL                                         \
  }

/* The 3-disc pile (frictionless) under impulse_lcp, 100 steps of 7 ms, with the physics observer and the
 * substep sum beside each other: PGS relaxed to omega 1e-3 (its own option; the fallback reads only the
 * shared ones) stops at its sweep cap on every step with a contact and leaves an approximate answer, so
 * each half of -step_halvings 2 advances, is reported, and fails; Lemke then takes the step whole. */
static int pile(const char *solver, const char *const *opts, struct run_physics_stats *phys,
                struct run_summary *sum, double q[6])
{
  struct run_observer obs[1];
  struct simulation sim;
  if (run_observer_physics(&obs[0], phys)) return 1;
  PetscOptions po = test_options_object(opts);
  int rc = simulation_open(&sim, scene_cannonball(2, 1.0, 0.0, 0), "impulse_lcp", solver, po);
  if (!rc) rc = simulation_run(&sim, 0.007, 100, obs, 1, sum);
  for (int i = 0; !rc && i < 3; i++)
    q[2 * i] = sim.w->bodies[i].x[0], q[2 * i + 1] = sim.w->bodies[i].x[1];
  simulation_close(&sim);
  PetscOptionsDestroy(&po);
  run_observers_destroy(obs, 1);
  return rc;
}

static void test_failed_steps_taken_by_lemke(void)
{
  const char *const crippled[] = {"-step_halvings",        "2",     "-pgs_omega", "1e-3",
                                  "-step_fallback_solver", "lemke", NULL},
                    *const alone[] = {"-step_halvings", "2", NULL};
  struct run_physics_stats p_fb, p_lemke;
  struct run_summary s_fb, s_lemke;
  double q_fb[6], q_lemke[6];
  if (pile("pgs", crippled, &p_fb, &s_fb, q_fb) || pile("lemke", alone, &p_lemke, &s_lemke, q_lemke)) {
    CHECK(0, "the pile could not run");
    return;
  }
  CHECK(s_lemke.failed_steps == 0 && s_lemke.halvings == 0 && s_lemke.fallbacks == 0,
        "Lemke alone solves every step of the pile (%ld failed)", s_lemke.failed_steps);
  CHECK(s_fb.failed_steps == 0 && s_fb.fallbacks > 50 && s_fb.halvings >= 3 * s_fb.fallbacks,
        "relaxed PGS fails %ld steps with their halves (%ld halvings), each taken whole by Lemke: no step "
        "fails",
        s_fb.fallbacks, s_fb.halvings);
  CHECK(max_abs_diff(q_fb, q_lemke, 6) == 0.0 && s_fb.steps == s_lemke.steps,
        "the run is Lemke's, bit for bit (the discs' final positions, %ld steps)", s_fb.steps);
  int same = p_fb.steps == p_lemke.steps && p_fb.fit_max == p_lemke.fit_max;
  for (int j = 0; j < PHYSICS_N_CHECKS; j++)
    same = same && p_fb.max[j] == p_lemke.max[j] && p_fb.mean[j] == p_lemke.mean[j];
  CHECK(same,
        "the physics checks judge Lemke's steps only: the failed halves PGS reported were withdrawn (worst "
        "Signorini %g = %g, %ld steps checked)",
        p_fb.max[1], p_lemke.max[1], p_fb.steps);
  CHECK(s_fb.iterations > s_lemke.iterations,
        "the steps' cost counts the failed attempts (%ld iterations against Lemke's %ld)", s_fb.iterations,
        s_lemke.iterations);
}

/* The fixture's drawn trial, which fb_newton solves at every step (test_step_halving): a fallback changes
 * nothing, bit for bit. */
static void test_unfailed_trial_unchanged(void)
{
  const struct grasp_world_settings sc = grasp_fixture_drawn();
  const char *const ssils[] = WITH_FALLBACK("tao_ssils");
  struct grasp_result plain = {0}, with = {0};
  struct substep_sum s_plain, s_with;
  if (run_with_sum(&sc, "fb_newton", grasp_fixture_implicit, &plain, &s_plain) ||
      run_with_sum(&sc, "fb_newton", ssils, &with, &s_with))
    return;
  CHECK(plain.outcome != GRASP_SOLVER_FAILURE && with.fallbacks == 0 && s_with.withdrawn == 0,
        "the drawn trial needs no fallback (%s, %d fallbacks)", grasp_outcome_name(plain.outcome),
        with.fallbacks);
  CHECK(plain.outcome == with.outcome && plain.steps == with.steps && plain.pivots == with.pivots &&
            plain.halved == with.halved && plain.retries == with.retries &&
            max_abs_diff(plain.q, with.q, 4) == 0.0,
        "with a fallback it gives the same trial bit for bit (%ld steps, %ld iterations, final state)",
        with.steps, with.pivots);
}

/* Lemke takes no NCP (not_applicable: no answer), so every step with a contact goes to the fallback: the
 * run is fb_newton's, solved from a zero start as fb_newton's own run without -cp_warm_start is. */
static void test_no_answer_replaced(void)
{
  const struct grasp_world_settings sc = grasp_fixture_drawn();
  const char *const fb[] = WITH_FALLBACK("fb_newton");
  struct grasp_result own = {0}, replaced = {0};
  struct substep_sum s_own, s_rep;
  int rc = run_with_sum(&sc, "fb_newton", grasp_fixture_implicit, &own, &s_own) ||
           run_with_sum(&sc, "lemke", fb, &replaced, &s_rep);
  CHECK(
      rc == 0 && replaced.outcome == own.outcome && replaced.steps == own.steps &&
          max_abs_diff(replaced.q, own.q, 4) == 0.0 && replaced.fallbacks > 0 &&
          replaced.fallbacks == s_rep.withdrawn && s_rep.mismatched == 0 && s_rep.steps == replaced.steps,
      "Lemke with fb_newton as the fallback: fb_newton's trial (%s, %ld steps, final state equal), %d steps "
      "taken by the fallback, each step's kept halves adding up to h",
      grasp_outcome_name(replaced.outcome), replaced.steps, replaced.fallbacks);
}

/* simulation_fallback_create: none makes nothing; a registered name a solver read from the options; an
 * unknown name and the step's own solver are refused with a message naming the option. */
static void test_names(void)
{
  struct formulation *f = NULL;
  struct solver *fb = NULL;
  char msg[256] = "";
  const char *const none[] = {NULL}, *const bad[] = {"-step_fallback_solver", "nosuch", NULL},
                    *const self[] = {"-step_fallback_solver", "fb_newton", NULL},
                    *const tao[] = {"-step_fallback_solver", "tao_ssils", "-cp_tol", "1e-9", NULL};
  const char *const *cases[] = {none, bad, self, tao};
  const int want_bad[] = {0, 1, 1, 0};
  const char *want_msg[] = {"", "-step_fallback_solver: unable to find requested solver type 'nosuch'",
                            "-step_fallback_solver fb_newton is the step's solver itself", ""};
  for (int i = 0; i < 4; i++) {
    PetscOptions po = test_options_object(cases[i]);
    msg[0] = '\0';
    int rc = formulation_create("geometric_implicit", &f, msg, sizeof msg) ||
             formulation_set_from_options(f, po, msg, sizeof msg);
    int bad_rc = !rc && simulation_fallback_create(f, "fb_newton", po, &fb, msg, sizeof msg);
    CHECK(!rc && bad_rc == want_bad[i] && strncmp(msg, want_msg[i], strlen(want_msg[i])) == 0 &&
              (fb != NULL) == (i == 3) &&
              (!fb || (strcmp(fb->type->name, "tao_ssils") == 0 && fb->set.tol == 1e-9)),
          "-step_fallback_solver case %d: %s (%s)", i, want_bad[i] ? "refused" : "accepted", msg);
    solver_destroy(&fb);
    formulation_destroy(&f);
    PetscOptionsDestroy(&po);
  }
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_names();
  test_failed_steps_taken_by_lemke();
  test_unfailed_trial_unchanged();
  test_no_answer_replaced();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
