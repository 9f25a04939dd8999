/* grasp_world.c — the grasp study's world (Chakraborty, Berard, Akella & Trinkle Sec. 6.4, eqs. (56)–(61);
 * the 2.5D model of Berard et al., ICRA 2007: ../shared/notes/grasp-study.md), built from the world's own
 * parts so that any registered formulation that knows them steps it:
 * - the lock piece: one body, a disc and six p = 4 superellipse teeth (grasp.h), at (-x, -y) from the
 *   gripper centre (the world origin), at rest, no gravity in the plane;
 * - its support: three points (the tripod, part frame) with their normal forces from statics with m g, the
 *   support friction coefficient on each, -support_directions directions (world.h, struct support_friction);
 * - the jaws: two bodies whose fingertips are the quadrants of eqs. (58)–(61) cut to a 0.2 m box (the far
 *   edges never decide a distance: test_grasp_world), each on a prismatic joint along x, linked as mirror
 *   images about the centre (the parallel gripper: one coordinate, the half-opening s), closing at the
 *   commanded speed; the drive is one force-limited velocity motor on the right jaw with the bound 2F,
 *   which the link shares between the jaws (F each, the force limit of the driver's model).
 * The jaws start start_clear outside the part's extent. The world's friction coefficient is the gripper's
 * (the only contacts are finger-part ones); its threshold is the contact margin. */
#include "grasp_world.h"

#include "scene.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

static const struct option_decl grasp_world_options[] = {
    {"x", OPT_REAL, offsetof(struct grasp_world_settings, x), "0", "[-60,60]",
     "gripper centre right of the part's centre [mm]"},
    {"y", OPT_REAL, offsetof(struct grasp_world_settings, y), "-11", "[-60,60]",
     "gripper centre above the part's centre [mm]"},
    {"mass", OPT_REAL, offsetof(struct grasp_world_settings, mass), "0.03", "(0,inf)",
     "part's mass [kg]; the inertia is that of a uniform disc"},
    {"jaw_mass", OPT_REAL, offsetof(struct grasp_world_settings, jaw_mass), "0.05", "(0,inf)",
     "each jaw's mass [kg]"},
    {"close_speed", OPT_REAL, offsetof(struct grasp_world_settings, close_speed), "0.02", "(0,inf)",
     "commanded closing speed of each jaw [m/s]"},
    {"close_force", OPT_REAL, offsetof(struct grasp_world_settings, close_force), "1", "(0,inf)",
     "force limit of each jaw [N]"},
    {"support_damping", OPT_REAL, offsetof(struct grasp_world_settings, damping), "0", "[0,inf)",
     "linear viscous friction of the support on the part [N s/m]"},
    {"g", OPT_REAL, offsetof(struct grasp_world_settings, g), "9.81", "(0,inf)",
     "gravity out of the plane [m/s^2]: sets the tripod's normal forces"},
    {"support_directions", OPT_INT, offsetof(struct grasp_world_settings, dirs), "8", "[3,16]",
     "friction directions per support point"},
    {"mu_support", OPT_REAL, offsetof(struct grasp_world_settings, mu_support), "0.5", "[0,inf)",
     "support friction coefficient (each tripod point)"},
    {"mu_grip", OPT_REAL, offsetof(struct grasp_world_settings, mu_grip), "0.5", "[0,inf)",
     "gripper friction coefficient"},
    {"tripod1_x", OPT_REAL, offsetof(struct grasp_world_settings, tripod[0][0]), "12.45", "(-20.75,20.75)",
     "support point 1 in the part's frame [mm] (default: 0.6 R at 0, 120 and 240 degrees)"},
    {"tripod1_y", OPT_REAL, offsetof(struct grasp_world_settings, tripod[0][1]), "0", "(-20.75,20.75)",
     "support point 1 [mm]"},
    {"tripod2_x", OPT_REAL, offsetof(struct grasp_world_settings, tripod[1][0]), "-6.225", "(-20.75,20.75)",
     "support point 2 [mm]"},
    {"tripod2_y", OPT_REAL, offsetof(struct grasp_world_settings, tripod[1][1]), "10.782", "(-20.75,20.75)",
     "support point 2 [mm]"},
    {"tripod3_x", OPT_REAL, offsetof(struct grasp_world_settings, tripod[2][0]), "-6.225", "(-20.75,20.75)",
     "support point 3 [mm]"},
    {"tripod3_y", OPT_REAL, offsetof(struct grasp_world_settings, tripod[2][1]), "-10.782", "(-20.75,20.75)",
     "support point 3 [mm]"},
    {"start_clear", OPT_REAL, offsetof(struct grasp_world_settings, start_clear), "2e-4", "(0,inf)",
     "the jaws start this far outside the part [m]"},
    {"margin", OPT_REAL, offsetof(struct grasp_world_settings, margin), "5e-4", "(0,inf)",
     "finger-part contacts enter the problem when closer than this [m] (the world's threshold)"},
};

/* A jaw: a dynamic body whose box [s, s + L] x [-L, 0] (right, side +1) or its mirror image holds the
 * fingertip at (side s, 0); on a prismatic joint along x, moving at side * -speed. Its index, or -1. */
static int add_jaw(struct world *w, int side, double s, double mass, double speed)
{
  const double h = 0.5 * GRASP_JAW_BOX, box[8] = {-h, -h, h, -h, h, h, -h, h};
  const int b = world_add_body(w, 0, mass, mass * GRASP_JAW_BOX * GRASP_JAW_BOX / 6.0);
  if (b < 0 || world_add_polygon(w, b, 4, box) < 0) return -1;
  struct body *jaw = &w->bodies[b];
  jaw->x[0] = side * (s + h), jaw->x[1] = -h;
  jaw->v[0] = -side * speed;
  jaw->group = 1; /* the jaws never touch each other */
  const double centre[3] = {0.0, 0.0, 0.0}, through[3] = {jaw->x[0], jaw->x[1], 0.0}, ex[3] = {1.0, 0.0, 0.0};
  return world_add_slider(w, b, -1, centre, through, ex) < 0 ? -1 : b;
}

/* The lock piece at (-x, -y) [m], at rest; its index, or -1. */
static int add_part(struct world *w, const struct grasp_world_settings *s)
{
  const double R = GRASP_DISC_RADIUS;
  const int b = world_add_body(w, 0, s->mass, 0.5 * s->mass * R * R);
  if (b < 0 || world_add_disc(w, b, 0.0, 0.0, R) < 0) return -1;
  for (int i = 0; i < GRASP_TEETH; i++)
    if (world_add_superellipse(w, b, R * cos(grasp_tooth_angle[i]), R * sin(grasp_tooth_angle[i]), 0.0,
                               GRASP_TOOTH_A, GRASP_TOOTH_B, 4, NULL, 0) < 0)
      return -1;
  w->bodies[b].x[0] = -1e-3 * s->x, w->bodies[b].x[1] = -1e-3 * s->y;
  return b;
}

int grasp_world_build(const struct grasp_world_settings *s, struct world **out, char *msg, size_t len)
{
  double tripod[3][2], normal[3], p[6];
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < 2; k++)
      tripod[i][k] = p[2 * i + k] = 1e-3 * s->tripod[i][k];
  *out = NULL;
  if (grasp_tripod_statics(tripod, s->mass, s->g, normal)) {
    snprintf(msg, len, "grasp: the part's centre of mass is outside its support tripod (a normal force < 0)");
    return 1;
  }
  struct world *w = world_create(2);
  if (!w) return snprintf(msg, len, "out of memory"), 1;
  w->gravity[0] = w->gravity[1] = 0.0; /* gravity is out of the plane: the support's normal forces */
  w->mu = s->mu_grip;
  w->threshold = s->margin;
  const int part = add_part(w, s);
  const double q[3] = {-1e-3 * s->x, -1e-3 * s->y, 0.0}, s0 = grasp_part_extent(q) + s->start_clear;
  const int right = part < 0 ? -1 : add_jaw(w, 1, s0, s->jaw_mass, s->close_speed);
  const int left = right < 0 ? -1 : add_jaw(w, -1, s0, s->jaw_mass, s->close_speed);
  const double origin[3] = {0.0, 0.0, 0.0}, ex[3] = {1.0, 0.0, 0.0};
  if (left < 0 || world_add_mirror(w, right, left, origin, ex) < 0 ||
      world_add_motor(w, right, ex, -s->close_speed, 2.0 * s->close_force) < 0 ||
      world_add_support(w, part, 3, p, normal, s->mu_support, s->dirs, s->damping) < 0 || world_finalize(w)) {
    world_destroy(&w);
    snprintf(msg, len, "grasp: could not build the world (out of memory)");
    return 1;
  }
  *out = w;
  return 0;
}

static int grasp_world_scene_build(const void *settings, gsl_rng *rng, struct world **w, char *msg,
                                   size_t len)
{
  (void)rng;
  return grasp_world_build(settings, w, msg, len);
}

const struct scene_type scene_type_grasp = {
    "grasp",
    "the lock piece on its support tripod between the force-limited parallel jaws (2.5D)",
    "Chakraborty, Berard, Akella & Trinkle Sec. 6.4, eqs. (56)-(61); Berard et al. ICRA 2007",
    SCENE_2D,
    1e-3,
    0,
    grasp_world_options,
    sizeof grasp_world_options / sizeof grasp_world_options[0],
    sizeof(struct grasp_world_settings),
    grasp_world_scene_build};
