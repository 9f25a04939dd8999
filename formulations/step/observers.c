/* observers.c — physics observers of the run loop (observers.h): standard-model traps (Williams, Lu &
 * Trinkle 2016 Sec. 1.2.3), Anitescu & Hart's normal velocity error (eqs. 6-7), 2D overlap, speed, and
 * stop-on-failure. Each measures outside the stepper's timed phases. */
#include "observers.h"

#include "geom2d.h"
#include "jacobian.h"
#include "overlap2d.h"
#include "peg2d.h"
#include "peg_lcp.h"
#include "sat2d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- traps: counted before the step, on the state the step starts from ---- */

struct trap_ctx {
  struct run_trap_stats *out;
  struct contact_set scratch;
  struct peg_model model;
  int last;   /* the step's trap count, -1: not counted */
  int last_i; /* the step's I-constraints */
};

/* PEG's I-constraints on the potential contacts the trap count just detected (the same default settings),
 * or -1 on allocation failure. */
static int trap_i_constraints(struct trap_ctx *c, const struct world *w)
{
  struct peg_settings s;
  peg_settings_default(&s, 1);
  int rc = w->dim == 2 ? peg_model_build(&c->model, w, &c->scratch, &s)
                       : peg3d_model_build(&c->model, w, &c->scratch, &s);
  return rc ? -1 : peg_model_i_constraints(&c->model);
}

static int traps_begin(void *vctx, struct simulation *sim, double h, long steps)
{
  (void)sim, (void)h, (void)steps;
  struct trap_ctx *c = vctx;
  memset(c->out, 0, sizeof *c->out);
  return RUN_CONTINUE;
}

static int traps_before(void *vctx, struct simulation *sim, long k, double h)
{
  (void)k;
  struct trap_ctx *c = vctx;
  c->last = -1;
  int traps =
      sim->w->dim == 2 ? peg2d_count_traps(sim->w, h, &c->scratch) : peg3d_count_traps(sim->w, &c->scratch);
  int i_constraints = traps < 0 ? -1 : trap_i_constraints(c, sim->w);
  if (i_constraints < 0) return RUN_ERROR;
  c->last = traps;
  c->last_i = i_constraints;
  return RUN_CONTINUE;
}

static int traps_after(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  (void)sim, (void)k, (void)rec;
  struct trap_ctx *c = vctx;
  if (c->last < 0) return RUN_CONTINUE;
  c->out->steps++;
  c->out->traps += c->last;
  c->out->steps_with_traps += c->last > 0;
  c->out->i_constraints += c->last_i;
  c->out->steps_with_i += c->last_i > 0;
  return RUN_CONTINUE;
}

static void traps_values(void *vctx, double *v)
{
  const struct trap_ctx *c = vctx;
  v[0] = c->last >= 0 ? (double)c->last : NAN;
  v[1] = c->last >= 0 ? (double)c->last_i : NAN;
}

static void traps_destroy(void *vctx)
{
  struct trap_ctx *c = vctx;
  if (!c) return;
  contact_set_free(&c->scratch);
  peg_model_free(&c->model);
  free(c);
}

int run_observer_traps(struct run_observer *o, struct run_trap_stats *out)
{
  memset(o, 0, sizeof *o);
  memset(out, 0, sizeof *out);
  struct trap_ctx *c = calloc(1, sizeof *c);
  if (!c) return 1;
  c->out = out;
  c->last = -1;
  *o = (struct run_observer){.name = "traps",
                             .ctx = c,
                             .begin = traps_begin,
                             .before_step = traps_before,
                             .after_step = traps_after,
                             .destroy = traps_destroy,
                             .columns = "traps,i_constraints",
                             .n_columns = 2,
                             .values = traps_values};
  return 0;
}

/* ---- normal velocity error: the Jacobian of the step-start state, so the bodies are kept before it ---- */

struct nv_ctx {
  struct run_nv_stats *out;
  struct body *start; /* the bodies at the step start */
  int cap;
  double h, sum_means;
};

static int nv_begin(void *vctx, struct simulation *sim, double h, long steps)
{
  (void)sim, (void)h, (void)steps;
  struct nv_ctx *c = vctx;
  memset(c->out, 0, sizeof *c->out);
  c->sum_means = 0.0;
  return RUN_CONTINUE;
}

static int nv_before(void *vctx, struct simulation *sim, long k, double h)
{
  (void)k;
  struct nv_ctx *c = vctx;
  const struct world *w = sim->w;
  c->h = h;
  return world_bodies_save(w, &c->start, &c->cap) ? RUN_ERROR : RUN_CONTINUE;
}

static int nv_after(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  (void)k;
  struct nv_ctx *c = vctx;
  struct run_nv_stats *out = c->out;
  double sum = 0.0, max = 0.0;
  long n = 0;
  if (rec->advanced) {
    /* the world as it was when the contacts were detected: same shapes, step-start bodies */
    struct world w0 = *sim->w;
    w0.bodies = c->start;
    const struct contact_set *cs = stepper_contacts(sim->st);
    const double *pn = stepper_impulses(sim->st), *nu = stepper_velocity(sim->st);
    const double pn_zero = sim->s->set.tol * rec->solve.scale, h = c->h;
    for (int i = 0; i < cs->n; i++) {
      if (!(pn[i] > pn_zero)) continue;
      struct jcol col;
      jcol_contact(&w0, &cs->c[i], cs->c[i].n, &col);
      double e = fabs(jcol_dot(&col, nu) + cs->c[i].gap / h);
      sum += e;
      max = fmax(max, e);
      n++;
    }
  }
  out->last_mean = n ? sum / (double)n : 0.0;
  out->last_max = max;
  out->steps++;
  out->contacts += n;
  c->sum_means += out->last_mean;
  out->mean = c->sum_means / (double)out->steps;
  out->mean_max = fmax(out->mean_max, out->last_mean);
  out->max = fmax(out->max, max);
  return RUN_CONTINUE;
}

static void nv_values(void *vctx, double *v)
{
  const struct nv_ctx *c = vctx;
  v[0] = c->out->last_mean;
  v[1] = c->out->last_max;
}

static void nv_destroy(void *vctx)
{
  struct nv_ctx *c = vctx;
  if (!c) return;
  free(c->start);
  free(c);
}

int run_observer_nv_error(struct run_observer *o, struct run_nv_stats *out)
{
  memset(o, 0, sizeof *o);
  memset(out, 0, sizeof *out);
  struct nv_ctx *c = calloc(1, sizeof *c);
  if (!c) return 1;
  c->out = out;
  *o = (struct run_observer){.name = "nv_error",
                             .ctx = c,
                             .begin = nv_begin,
                             .before_step = nv_before,
                             .after_step = nv_after,
                             .destroy = nv_destroy,
                             .columns = "nv_error_mean,nv_error_max",
                             .n_columns = 2,
                             .values = nv_values};
  return 0;
}

/* ---- 2D overlap after the step ---- */

struct overlap_ctx {
  struct run_overlap_stats *out;
  double last_area, last_depth; /* NAN: the step did not advance */
};

static int overlap_begin(void *vctx, struct simulation *sim, double h, long steps)
{
  (void)sim, (void)h, (void)steps;
  struct overlap_ctx *c = vctx;
  c->out->n = 0;
  c->out->area_max = c->out->depth_max = 0.0;
  return RUN_CONTINUE;
}

static int overlap_after(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  (void)k;
  struct overlap_ctx *c = vctx;
  struct run_overlap_stats *out = c->out;
  c->last_area = c->last_depth = NAN;
  if (!rec->advanced) return RUN_CONTINUE;
  c->last_area = world_total_overlap_2d(sim->w);
  c->last_depth = world_max_penetration_2d(sim->w);
  if (c->last_depth < 0.0) return RUN_ERROR;
  if (out->area && out->n < out->cap) out->area[out->n] = c->last_area;
  out->n++;
  out->area_max = fmax(out->area_max, c->last_area);
  out->depth_max = fmax(out->depth_max, c->last_depth);
  return RUN_CONTINUE;
}

static void overlap_values(void *vctx, double *v)
{
  const struct overlap_ctx *c = vctx;
  v[0] = c->last_area;
  v[1] = c->last_depth;
}

int run_observer_overlap(struct run_observer *o, struct run_overlap_stats *out)
{
  memset(o, 0, sizeof *o);
  struct overlap_ctx *c = calloc(1, sizeof *c);
  if (!c) return 1;
  c->out = out;
  c->last_area = c->last_depth = NAN;
  *o = (struct run_observer){.name = "overlap",
                             .ctx = c,
                             .begin = overlap_begin,
                             .after_step = overlap_after,
                             .destroy = free,
                             .columns = "overlap,overlap_depth",
                             .n_columns = 2,
                             .values = overlap_values};
  return 0;
}

/* ---- speed after the step ---- */

struct speed_ctx {
  struct run_speed_stats *out;
  double last_speed, last_kinetic; /* NAN: the step did not advance */
};

static int speed_after(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  (void)k;
  struct speed_ctx *c = vctx;
  c->last_speed = c->last_kinetic = NAN;
  if (!rec->advanced) return RUN_CONTINUE;
  c->last_speed = world_max_speed(sim->w);
  c->last_kinetic = world_kinetic_energy(sim->w);
  c->out->speed_max = fmax(c->out->speed_max, c->last_speed);
  return RUN_CONTINUE;
}

static void speed_values(void *vctx, double *v)
{
  const struct speed_ctx *c = vctx;
  v[0] = c->last_speed;
  v[1] = c->last_kinetic;
}

int run_observer_speed(struct run_observer *o, struct run_speed_stats *out)
{
  memset(o, 0, sizeof *o);
  memset(out, 0, sizeof *out);
  struct speed_ctx *c = calloc(1, sizeof *c);
  if (!c) return 1;
  c->out = out;
  c->last_speed = c->last_kinetic = NAN;
  *o = (struct run_observer){.name = "speed",
                             .ctx = c,
                             .after_step = speed_after,
                             .destroy = free,
                             .columns = "speed_max,kinetic_energy",
                             .n_columns = 2,
                             .values = speed_values};
  return 0;
}

/* ---- stop on failure ---- */

static int stop_after(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  (void)vctx, (void)sim, (void)k;
  return rec->failed ? RUN_STOP : RUN_CONTINUE;
}

void run_observer_stop_on_failure(struct run_observer *o)
{
  *o = (struct run_observer){.name = "stop_on_failure", .after_step = stop_after};
}

/* ---- a body's pose after the step ---- */

static void pose_put(struct run_pose_stats *c, const struct world *w)
{
  const struct body *b = &w->bodies[c->body];
  if (c->pose) {
    double *x = c->pose + 3 * c->done;
    x[0] = b->x[0], x[1] = b->x[1], x[2] = b->theta;
  }
  c->joint_gap = fmax(c->joint_gap, world_joint_gap(w));
}

static int pose_begin(void *vctx, struct simulation *sim, double h, long steps)
{
  (void)h, (void)steps;
  pose_put(vctx, sim->w);
  return RUN_CONTINUE;
}

static int pose_after(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  (void)k;
  struct run_pose_stats *c = vctx;
  if (!rec->advanced) return RUN_CONTINUE;
  c->done++;
  pose_put(c, sim->w);
  return RUN_CONTINUE;
}

int run_observer_pose(struct run_observer *o, struct run_pose_stats *out)
{
  out->done = 0;
  out->joint_gap = 0.0;
  *o = (struct run_observer){.name = "pose", .ctx = out, .begin = pose_begin, .after_step = pose_after};
  return 0;
}
