/* grasp_run.c — the grasp trial on the one run loop (see grasp_run.h). */
#include "grasp_run.h"

#include "run.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct grasp_watch {
  const struct grasp_world_settings *sc;
  const struct grasp_trial_opts *o;
  struct grasp_result *r;
  double load_min; /* a contact carries load above this impulse per step [N s] */
  int still;       /* consecutive steps at rest with a finger loaded */
};

/* The trial's state (x_g, y_g, theta_g, s) and velocity from the world. */
static void grasp_state_of(const struct world *w, double q[4], double u[4])
{
  const struct body *part = &w->bodies[GRASP_BODY_PART], *jaw = &w->bodies[GRASP_BODY_RIGHT_JAW];
  q[0] = part->x[0], q[1] = part->x[1], q[2] = part->theta, q[3] = jaw->x[0] - 0.5 * GRASP_JAW_BOX;
  u[0] = part->v[0], u[1] = part->v[1], u[2] = part->w[2], u[3] = jaw->v[0];
}

/* Nothing touches, the part is still and the jaws move at their commanded speed: nothing happens until a
 * finger reaches the part, so the jaws advance in one go to half the margin from it (each gap shrinks by at
 * most the jaws' travel), or to where they meet. */
static int skip_free_closing(void *vctx, struct simulation *sim, long k, double h)
{
  struct grasp_watch *c = vctx;
  struct world *w = sim->w;
  const double still = 1e-9, v = c->sc->close_speed; /* [m/s]: a part this slow is held by its support */
  double q[4], u[4], gmin = INFINITY;
  (void)k, (void)h;
  grasp_state_of(w, q, u);
  if (fabs(u[0]) > still || fabs(u[1]) > still || fabs(u[2]) * GRASP_DISC_RADIUS > still ||
      fabs(u[3] + v) > 1e-9 * v)
    return RUN_CONTINUE;
  for (int finger = 1; finger >= -1; finger -= 2)
    for (int j = 0; j < GRASP_COMPONENTS; j++) {
      struct grasp_contact gc;
      grasp_finger_gap(q, finger, j, &gc);
      gmin = fmin(gmin, gc.gap);
    }
  double ds = gmin - 0.5 * c->o->margin;
  if (ds <= 0.0 || gmin <= c->o->margin) return RUN_CONTINUE;
  if (q[3] - ds < c->o->s_min) ds = q[3] - c->o->s_min;
  w->bodies[GRASP_BODY_RIGHT_JAW].x[0] -= ds;
  w->bodies[GRASP_BODY_LEFT_JAW].x[0] += ds;
  struct body *part = &w->bodies[GRASP_BODY_PART];
  part->v[0] = part->v[1] = part->w[2] = 0.0;
  w->t += ds / v;
  c->r->skipped += ds / v;
  return q[3] - ds <= c->o->s_min ? RUN_STOP : RUN_CONTINUE; /* closed on nothing */
}

/* The step's finger-part contacts as the grasp model's (finger, component, normal from the part to the
 * finger, impulse) into r->contact. A halved step's contacts and impulses are its last half step's, of
 * length h_last: the impulse is scaled to a step of h, which the load test assumes. */
static void loaded_contacts(const struct simulation *sim, double h, double h_last, struct grasp_result *r)
{
  const struct contact_set *cs = stepper_contacts(sim->st);
  const double *pn = stepper_impulses(sim->st);
  const int first = sim->w->bodies[GRASP_BODY_PART].shape_begin;
  r->n_contacts = 0;
  for (int i = 0; i < cs->n && r->n_contacts < GRASP_MAX_CONTACTS; i++) {
    const struct contact *ct = &cs->c[i];
    const int part_is_a = ct->a == GRASP_BODY_PART, jaw = part_is_a ? ct->b : ct->a;
    const double sign = part_is_a ? -1.0 : 1.0; /* the world's normal points from b to a */
    struct grasp_contact *g = &r->contact[r->n_contacts++];
    g->finger = jaw == GRASP_BODY_RIGHT_JAW ? 1 : -1;
    g->component = (part_is_a ? ct->sa : ct->sb) - first;
    g->gap = ct->gap;
    g->n[0] = sign * ct->n[0], g->n[1] = sign * ct->n[1];
    g->r[0] = (part_is_a ? ct->pa[0] : ct->pb[0]) - sim->w->bodies[GRASP_BODY_PART].x[0];
    g->r[1] = (part_is_a ? ct->pa[1] : ct->pb[1]) - sim->w->bodies[GRASP_BODY_PART].x[1];
    g->impulse = pn[i] * (h / h_last);
  }
}

static int judge_step(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  struct grasp_watch *c = vctx;
  struct grasp_result *r = c->r;
  (void)k;
  if (rec->failed) {
    snprintf(r->message, sizeof r->message, "step at t = %.6g s: %s %.100s", rec->t_start,
             solve_status_name(rec->solve.status), rec->solve.message);
    r->status = rec->solve.status;
    return RUN_STOP;
  }
  loaded_contacts(sim, c->o->h, rec->h_last, r);
  int loaded = 0;
  for (int i = 0; i < r->n_contacts; i++)
    loaded |= r->contact[i].impulse > c->load_min;
  double q[4], u[4], speed = 0.0;
  grasp_state_of(sim->w, q, u);
  for (int j = 0; j < 4; j++)
    speed = fmax(speed, fabs(u[j]) * (j == 2 ? GRASP_DISC_RADIUS : 1.0));
  if (q[3] <= c->o->s_min) return RUN_STOP; /* the fingers met: nothing held */
  c->still = loaded && speed < c->o->rest_speed ? c->still + 1 : 0;
  if (c->still < c->o->rest_steps) return RUN_CONTINUE;
  r->at_rest = 1;
  return RUN_STOP;
}

int grasp_run_trial(struct simulation *sim, const struct grasp_world_settings *sc,
                    const struct grasp_trial_opts *o, const struct run_observer *more, int n_more,
                    struct grasp_result *r)
{
  memset(r, 0, sizeof *r);
  struct grasp_watch c = {.sc = sc, .o = o, .r = r, .load_min = 0.01 * sc->close_force * o->h};
  struct run_observer obs[1 + GRASP_RUN_MORE] = {
      {.name = "grasp", .ctx = &c, .before_step = skip_free_closing, .after_step = judge_step}};
  if (n_more < 0 || n_more > GRASP_RUN_MORE) {
    snprintf(r->message, sizeof r->message, "%d observers, more than a trial takes (%d)", n_more,
             GRASP_RUN_MORE);
    return 1;
  }
  for (int i = 0; i < n_more; i++)
    obs[1 + i] = more[i];
  struct run_summary sum;
  const long steps = run_step_count(o->t_max, o->h);
  if (steps < 0 || simulation_run(sim, o->h, steps, obs, 1 + n_more, &sum)) {
    snprintf(r->message, sizeof r->message, "the run loop failed (t_max %g, h %g)", o->t_max, o->h);
    return 1;
  }
  double u[4];
  grasp_state_of(sim->w, r->q, u);
  r->steps = sum.steps;
  r->t = sum.t;
  r->rows_sum = sum.rows_mean * (double)sum.steps;
  r->pivots = sum.iterations;
  r->halved = (int)sum.halvings;
  r->retries = (int)sum.cold_retries;
  r->fallbacks = (int)sum.fallbacks;
  r->solve_seconds = sum.solve_seconds * (double)sum.steps;
  const int failed = r->message[0] != 0 || sum.end == RUN_END_NO_ANSWER;
  if (failed && !r->message[0]) snprintf(r->message, sizeof r->message, "a step's solve gave no answer");
  r->outcome = failed ? GRASP_SOLVER_FAILURE
                      : grasp_classify(r->contact, r->n_contacts, c.load_min, o->s_min, r->q[3]);
  return 0;
}
