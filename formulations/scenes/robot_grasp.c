/* robot_grasp.c — the PEG authors' 2D robot-arm grasp scene (registered as robot_grasp), its joints' angles
 * and torques (see robot_grasp.h; the authors' robotArm2D.m; the PD controller is bench_robot_grasp's). */
#include "robot_grasp.h"

#include "scene.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* Body indices: ground 0, base 1, f1..f4 2..5, target 6. Joint j (0-based) joins first[j] to second[j]. */
static const int first[ROBOT_GRASP_JOINTS] = {1, 1, 2, 3}, second[ROBOT_GRASP_JOINTS] = {2, 3, 4, 5};
static const double anchor_x[ROBOT_GRASP_JOINTS] = {0.025, -0.025, 0.075, -0.075};
static const double link_x[4] = {0.05, -0.05, 0.10, -0.10};
static const double anchor_y = 0.25;

static int add_rect_body(struct world *w, int is_static, double cx, double cy, double wd, double ht, double m,
                         double J)
{
  const double xy[8] = {-0.5 * wd, -0.5 * ht, 0.5 * wd, -0.5 * ht, 0.5 * wd, 0.5 * ht, -0.5 * wd, 0.5 * ht};
  int b = world_add_body(w, is_static, m, J);
  if (b < 0 || world_add_polygon(w, b, 4, xy) < 0) return -1;
  w->bodies[b].x[0] = cx;
  w->bodies[b].x[1] = cy;
  return b;
}

struct world *scene_robot_grasp(const struct peg_body_spec *target, double mu)
{
  struct world *w = world_create(2);
  if (!w) return NULL;
  w->gravity[1] = -9.8;
  w->mu = mu;
  /* Contact threshold: the larger scenes' 0.07 m exceeds this scene's parts (links 0.01 thick, targets about
   * 0.07 across): a vertex up to 0.07 behind an edge's line is past the link's far side and reads as a deep
   * penetration, and the first step's standard-model LCP has no solution (Lemke ends on a ray; measured with
   * paper detection, 0.01 still fails mid-run). Below half the links' thickness nothing is misread. */
  w->threshold = ROBOT_GRASP_THRESHOLD;
  int ok = add_rect_body(w, 1, 0.0, 0.14, 0.3, 0.03, 0.0, 0.0) == 0 &&
           add_rect_body(w, 1, 0.0, anchor_y, 0.05, 0.01, 0.0, 0.0) == 1;
  for (int i = 0; i < 4 && ok; i++)
    ok = add_rect_body(w, 0, link_x[i], anchor_y, 0.05, 0.01, 0.2, 0.005) == 2 + i;
  for (int b = 1; b <= 5 && ok; b++)
    w->bodies[b].group = 1; /* the arm never collides with itself */
  for (int j = 0; j < ROBOT_GRASP_JOINTS && ok; j++) {
    const struct body *a = &w->bodies[second[j]], *b = &w->bodies[first[j]];
    double pa[3] = {anchor_x[j] - a->x[0], anchor_y - a->x[1], 0.0};
    double pb[3] = {anchor_x[j] - b->x[0], anchor_y - b->x[1], 0.0};
    ok = world_add_joint(w, JOINT_REVOLUTE_2D, second[j], first[j], pa, pb) >= 0;
  }
  if (ok && world_finalize(w) == 0) {
    struct peg_body_spec s = *target;
    s.x[0] = 0.0, s.x[1] = 0.2, s.v[0] = s.v[1] = s.w = 0.0;
    if (scene_peg_add_body(w, &s) == ROBOT_GRASP_TARGET) return w;
  }
  world_destroy(&w);
  return NULL;
}

int scene_robot_grasp_target(const char *bodyset_file, int k, struct peg_body_spec *target, char *err,
                             size_t errlen)
{
  struct peg_body_spec specs[32];
  int n = 0;
  if (k < 1 || k > 10) {
    snprintf(err, errlen, "target %d: the grasp targets are polygons 1..10 of set b", k);
    return 1;
  }
  if (scene_peg_bodyset_load(bodyset_file, 2, specs, 32, &n, err, errlen)) return 1;
  if (n < k) {
    snprintf(err, errlen, "%s: set b has %d polygons, target %d asked for", bodyset_file, n, k);
    return 1;
  }
  *target = specs[k - 1];
  for (int i = 0; i < 2 * target->n; i++)
    target->xy[i] *= 0.28;
  target->mass = 0.1;
  target->inertia = 1e-4;
  return 0;
}

void robot_grasp_joint_angles(const struct world *w, double *theta)
{
  for (int j = 0; j < ROBOT_GRASP_JOINTS; j++)
    theta[j] = w->bodies[second[j]].theta - w->bodies[first[j]].theta;
}

void robot_grasp_joint_torque(struct world *w, int j, double tau)
{
  w->bodies[second[j]].tau[2] += tau;
  w->bodies[first[j]].tau[2] -= tau;
}

/* The registered scene: the target by its index in the stored body sets. */
struct robot_grasp_settings {
  int target;
  double mu;
  char bodyset_file[OPTION_STRING_MAX];
};

static const struct option_decl robot_grasp_options[] = {
    {"target", OPT_INT, offsetof(struct robot_grasp_settings, target), "1", "[1,10]",
     "the target: polygon k of body set b"},
    {"mu", OPT_REAL, offsetof(struct robot_grasp_settings, mu), "0", "[0,inf)",
     "Coulomb friction coefficient"},
    {"bodyset_file", OPT_STRING, offsetof(struct robot_grasp_settings, bodyset_file), "", NULL,
     "the stored body sets (default $CB_SHARED_DATA or ../shared/data, + /peg/box2d_bodysets.txt)"},
};

static int robot_grasp_build(const void *settings, gsl_rng *rng, struct world **w, char *msg, size_t len)
{
  const struct robot_grasp_settings *s = settings;
  char path[OPTION_STRING_MAX];
  struct peg_body_spec target;
  (void)rng;
  *w = NULL;
  if (s->bodyset_file[0])
    snprintf(path, sizeof path, "%s", s->bodyset_file);
  else
    scene_peg_bodyset_default_path(path, sizeof path);
  if (scene_robot_grasp_target(path, s->target, &target, msg, len)) return 1;
  *w = scene_robot_grasp(&target, s->mu);
  if (!*w) snprintf(msg, len, "out of memory");
  return *w ? 0 : 1;
}

const struct scene_type scene_type_robot_grasp = {
    "robot_grasp",
    "a two-fingered arm on revolute joints closing on a polygon resting on the ground (the PD control is "
    "its driver's)",
    "Williams, Lu & Trinkle 2016: the authors' repository (robot-arm grasp, robotArm2D.m)",
    SCENE_2D,
    1e-3,
    0,
    robot_grasp_options,
    sizeof robot_grasp_options / sizeof robot_grasp_options[0],
    sizeof(struct robot_grasp_settings),
    robot_grasp_build};
