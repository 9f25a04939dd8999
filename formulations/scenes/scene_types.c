/* scene_types.c — the registry entries (scene.h) for the builders of scenes.h: each declares its options
 * (name, type, default, range, help with unit) in a settings struct and wraps its builder. Sources: the
 * rolling disc / N-gon of Chakraborty et al. Sec. 6.1, the incline of Stewart & Trinkle 1996, the
 * cannonball stack of Anitescu-Hart Sec. 4B, the PEG experiments (Williams, Lu & Trinkle 2016 Sec. 6),
 * Egan, Berard & Trinkle Figs. 1 and 3, the hexagonal pyramid of Anitescu-Hart Sec. 3. Angles are
 * options in degrees (the builders take radians). */
#include "scene.h"
#include "scenes.h"

#include <math.h>
#include <stddef.h>

#define ROW(st, field, type, def, range, help)                                                               \
  {                                                                                                          \
#field, type, offsetof(st, field), def, range, help                                                      \
  }
#define DEG         (M_PI / 180.0)
#define COUNT(rows) (int)(sizeof(rows) / sizeof((rows)[0]))

/* Common tail of the wrappers: a builder returns NULL on any failure, without saying which. */
static int built(struct world *w, struct world **out, char *msg, size_t len)
{
  *out = w;
  if (!w) snprintf(msg, len, "the builder failed (allocation or invalid geometry)");
  return w ? 0 : 1;
}

/* A random scene's stream seed: its option when nonzero, else drawn from the caller's rng. */
static int resolve_seed(int seed, gsl_rng *rng, unsigned long *out, char *msg, size_t len)
{
  if (seed > 0) {
    *out = (unsigned long)seed;
    return 0;
  }
  if (!rng) {
    snprintf(msg, len, "seed 0 draws the seed from the caller's random stream, and none was given");
    return 1;
  }
  *out = gsl_rng_get(rng);
  return 0;
}

/* ---- disc_on_line ---- */
struct disc_on_line_settings {
  double radius, mass, y0, mu, vx, vy, omega;
};
static const struct option_decl disc_on_line_options[] = {
    ROW(struct disc_on_line_settings, radius, OPT_REAL, "0.5", "(0,inf)", "disc radius [m]"),
    ROW(struct disc_on_line_settings, mass, OPT_REAL, "1", "(0,inf)", "disc mass [kg]"),
    ROW(struct disc_on_line_settings, y0, OPT_REAL, "0.6", "", "height of the centre above the ground [m]"),
    ROW(struct disc_on_line_settings, mu, OPT_REAL, "0", "[0,inf)", "Coulomb friction coefficient"),
    ROW(struct disc_on_line_settings, vx, OPT_REAL, "0", "", "initial horizontal velocity [m/s]"),
    ROW(struct disc_on_line_settings, vy, OPT_REAL, "0", "", "initial vertical velocity [m/s]"),
    ROW(struct disc_on_line_settings, omega, OPT_REAL, "0", "", "initial angular velocity [rad/s]"),
};
static int disc_on_line_build(const void *settings, gsl_rng *rng, struct world **w, char *msg, size_t len)
{
  const struct disc_on_line_settings *s = settings;
  (void)rng;
  struct world *disc = scene_disc_on_line(s->radius, s->mass, s->y0, s->mu);
  if (disc) { /* body 1 is the disc */
    disc->bodies[1].v[0] = s->vx;
    disc->bodies[1].v[1] = s->vy;
    disc->bodies[1].w[2] = s->omega;
  }
  return built(disc, w, msg, len);
}
const struct scene_type scene_type_disc_on_line = {"disc_on_line",
                                                   "one disc above (or on) a static ground line",
                                                   "Chakraborty et al. Sec. 6.1",
                                                   SCENE_2D,
                                                   0.01,
                                                   0,
                                                   disc_on_line_options,
                                                   COUNT(disc_on_line_options),
                                                   sizeof(struct disc_on_line_settings),
                                                   disc_on_line_build};

/* ---- ngon ---- */
struct ngon_settings {
  int sides;
  double radius, mass, mu, vx, vy, omega;
};
static const struct option_decl ngon_options[] = {
    ROW(struct ngon_settings, sides, OPT_INT, "6", "[3,100000]", "number of vertices"),
    ROW(struct ngon_settings, radius, OPT_REAL, "1", "(0,inf)", "circumradius [m]"),
    ROW(struct ngon_settings, mass, OPT_REAL, "1", "(0,inf)", "mass [kg]"),
    ROW(struct ngon_settings, mu, OPT_REAL, "0.4", "[0,inf)", "Coulomb friction coefficient"),
    ROW(struct ngon_settings, vx, OPT_REAL, "-3", "", "initial horizontal velocity [m/s]"),
    ROW(struct ngon_settings, vy, OPT_REAL, "0", "", "initial vertical velocity [m/s]"),
    ROW(struct ngon_settings, omega, OPT_REAL, "3", "", "initial angular velocity [rad/s]"),
};
static int ngon_build(const void *settings, gsl_rng *rng, struct world **w, char *msg, size_t len)
{
  const struct ngon_settings *s = settings;
  const double nu0[3] = {s->vx, s->vy, s->omega};
  (void)rng;
  return built(scene_ngon(s->sides, s->radius, s->mass, s->mu, nu0), w, msg, len);
}
const struct scene_type scene_type_ngon = {"ngon",
                                           "a regular N-gon rolling on the ground, vertex 0 down",
                                           "Chakraborty et al. Sec. 6.1",
                                           SCENE_2D,
                                           0.01,
                                           0,
                                           ngon_options,
                                           COUNT(ngon_options),
                                           sizeof(struct ngon_settings),
                                           ngon_build};

/* ---- superellipse_on_line ---- */
struct superellipse_on_line_settings {
  double a, b;
  int p, sides;
  double mass, mu, vx, vy, omega;
};
static const struct option_decl superellipse_on_line_options[] = {
    ROW(struct superellipse_on_line_settings, a, OPT_REAL, "1.2", "(0,inf)", "semi-axis along x [m]"),
    ROW(struct superellipse_on_line_settings, b, OPT_REAL, "0.8", "(0,inf)", "semi-axis along y [m]"),
    ROW(struct superellipse_on_line_settings, p, OPT_INT, "4", "[2,1000]", "exponent (even; 2: the ellipse)"),
    ROW(struct superellipse_on_line_settings, sides, OPT_INT, "0", "[0,100000]",
        "0: the smooth shape; N >= 3: the N-gon inscribed in it, vertex 0 at the bottom"),
    ROW(struct superellipse_on_line_settings, mass, OPT_REAL, "1", "(0,inf)", "mass [kg]"),
    ROW(struct superellipse_on_line_settings, mu, OPT_REAL, "0.4", "[0,inf)", "Coulomb friction coefficient"),
    ROW(struct superellipse_on_line_settings, vx, OPT_REAL, "-2.4", "",
        "initial horizontal velocity [m/s] (the default rolls without slip: -omega b)"),
    ROW(struct superellipse_on_line_settings, vy, OPT_REAL, "0", "", "initial vertical velocity [m/s]"),
    ROW(struct superellipse_on_line_settings, omega, OPT_REAL, "3", "", "initial angular velocity [rad/s]"),
};
static int superellipse_on_line_build(const void *settings, gsl_rng *rng, struct world **w, char *msg,
                                      size_t len)
{
  const struct superellipse_on_line_settings *s = settings;
  const double nu0[3] = {s->vx, s->vy, s->omega};
  (void)rng;
  *w = NULL;
  if (s->p % 2 != 0) {
    snprintf(msg, len, "p %d: the exponent must be even", s->p);
    return 1;
  }
  if (s->sides > 0 && s->sides < 3) {
    snprintf(msg, len, "sides %d: 0 (the smooth shape) or at least 3", s->sides);
    return 1;
  }
  return built(s->sides ? scene_superellipse_ngon(s->sides, s->a, s->b, s->p, s->mass, s->mu, nu0)
                        : scene_superellipse_on_line(s->a, s->b, s->p, s->mass, s->mu, nu0),
               w, msg, len);
}
const struct scene_type scene_type_superellipse_on_line = {
    "superellipse_on_line",
    "a superellipse (or the N-gon inscribed in it) rolling on a static ground line",
    "Chakraborty et al. Secs. 4.1 and 6.1 (the rolling disc's shape made a superellipse)",
    SCENE_2D,
    0.01,
    0,
    superellipse_on_line_options,
    COUNT(superellipse_on_line_options),
    sizeof(struct superellipse_on_line_settings),
    superellipse_on_line_build};

/* ---- incline (2D) and incline_3d ---- */
struct incline_settings {
  double theta, mu, width, height, mass;
};
static const struct option_decl incline_options[] = {
    ROW(struct incline_settings, theta, OPT_REAL, "20", "[0,90)", "incline angle [degrees]"),
    ROW(struct incline_settings, mu, OPT_REAL, "0.3", "[0,inf)", "Coulomb friction coefficient"),
    ROW(struct incline_settings, width, OPT_REAL, "0.4", "(0,inf)", "block width [m]"),
    ROW(struct incline_settings, height, OPT_REAL, "0.2", "(0,inf)", "block height [m]"),
    ROW(struct incline_settings, mass, OPT_REAL, "2", "(0,inf)", "block mass [kg]"),
};
static int incline_build(const void *settings, gsl_rng *rng, struct world **w, char *msg, size_t len)
{
  const struct incline_settings *s = settings;
  (void)rng;
  return built(scene_incline_2d(s->theta * DEG, s->mu, s->width, s->height, s->mass), w, msg, len);
}
const struct scene_type scene_type_incline = {"incline",
                                              "a block at rest on an incline (sticks when tan theta <= mu)",
                                              "Stewart & Trinkle 1996",
                                              SCENE_2D,
                                              1e-3,
                                              0,
                                              incline_options,
                                              COUNT(incline_options),
                                              sizeof(struct incline_settings),
                                              incline_build};

struct incline_3d_settings {
  double theta, mu, hx, hy, hz, mass;
};
static const struct option_decl incline_3d_options[] = {
    ROW(struct incline_3d_settings, theta, OPT_REAL, "20", "[0,90)", "incline angle [degrees]"),
    ROW(struct incline_3d_settings, mu, OPT_REAL, "0.3", "[0,inf)", "Coulomb friction coefficient"),
    ROW(struct incline_3d_settings, hx, OPT_REAL, "0.2", "(0,inf)", "box half extent along the slope [m]"),
    ROW(struct incline_3d_settings, hy, OPT_REAL, "0.15", "(0,inf)", "box half extent across the slope [m]"),
    ROW(struct incline_3d_settings, hz, OPT_REAL, "0.1", "(0,inf)", "box half height [m]"),
    ROW(struct incline_3d_settings, mass, OPT_REAL, "2", "(0,inf)", "box mass [kg]"),
};
static int incline_3d_build(const void *settings, gsl_rng *rng, struct world **w, char *msg, size_t len)
{
  const struct incline_3d_settings *s = settings;
  (void)rng;
  return built(scene_incline_3d(s->theta * DEG, s->mu, s->hx, s->hy, s->hz, s->mass), w, msg, len);
}
const struct scene_type scene_type_incline_3d = {"incline_3d",
                                                 "a box at rest on a tilted plane",
                                                 "Stewart & Trinkle 1996 (3D pyramid cone)",
                                                 SCENE_3D,
                                                 1e-3,
                                                 0,
                                                 incline_3d_options,
                                                 COUNT(incline_3d_options),
                                                 sizeof(struct incline_3d_settings),
                                                 incline_3d_build};

/* ---- box_stack ---- */
struct box_stack_settings {
  int n;
  double width, height, mass, mu, taper;
};
static const struct option_decl box_stack_options[] = {
    ROW(struct box_stack_settings, n, OPT_INT, "5", "[1,100000]", "number of boxes"),
    ROW(struct box_stack_settings, width, OPT_REAL, "1", "(0,inf)", "width of the bottom box [m]"),
    ROW(struct box_stack_settings, height, OPT_REAL, "0.5", "(0,inf)", "box height [m]"),
    ROW(struct box_stack_settings, mass, OPT_REAL, "1", "(0,inf)", "box mass [kg]"),
    ROW(struct box_stack_settings, mu, OPT_REAL, "0.5", "[0,inf)", "Coulomb friction coefficient"),
    ROW(struct box_stack_settings, taper, OPT_REAL, "0", "[0,1)",
        "box i has width width (1 - taper i); 0: equal widths, coincident corners"),
};
static int box_stack_build(const void *settings, gsl_rng *rng, struct world **w, char *msg, size_t len)
{
  const struct box_stack_settings *s = settings;
  (void)rng;
  if (s->taper * (s->n - 1) >= 1.0) { /* the top box would have no width */
    snprintf(msg, len, "taper %g with %d boxes leaves the top box no width (need taper (n - 1) < 1)",
             s->taper, s->n);
    return 1;
  }
  return built(scene_box_stack(s->n, s->width, s->height, s->mass, s->mu, s->taper), w, msg, len);
}
const struct scene_type scene_type_box_stack = {"box_stack",
                                                "boxes stacked on the ground at rest",
                                                "stacking test (coincident corners)",
                                                SCENE_2D,
                                                0.01,
                                                0,
                                                box_stack_options,
                                                COUNT(box_stack_options),
                                                sizeof(struct box_stack_settings),
                                                box_stack_build};

/* ---- cannonball ---- */
struct cannonball_settings {
  int rows;
  double mass, mu;
  int walls;
  double threshold;
};
static const struct option_decl cannonball_options[] = {
    ROW(struct cannonball_settings, rows, OPT_INT, "6", "[1,1000]",
        "rows of discs (rows (rows + 1) / 2 discs: 6 -> 21, 16 -> 136, 20 -> 210)"),
    ROW(struct cannonball_settings, mass, OPT_REAL, "1", "(0,inf)", "disc mass [kg]"),
    ROW(struct cannonball_settings, mu, OPT_REAL, "0.05", "[0,inf)", "Coulomb friction coefficient"),
    ROW(struct cannonball_settings, walls, OPT_BOOL, "0", NULL,
        "static walls touching the bottom row's ends"),
    ROW(struct cannonball_settings, threshold, OPT_REAL, "0.01", "(0,inf)",
        "contact detection threshold [m]"),
};
static int cannonball_build(const void *settings, gsl_rng *rng, struct world **w, char *msg, size_t len)
{
  const struct cannonball_settings *s = settings;
  (void)rng;
  if (built(scene_cannonball(s->rows, s->mass, s->mu, s->walls), w, msg, len)) return 1;
  (*w)->threshold = s->threshold;
  return 0;
}
const struct scene_type scene_type_cannonball = {"cannonball",
                                                 "hexagonally packed discs of diameter 3 on a plank, at rest",
                                                 "Anitescu-Hart Sec. 4B",
                                                 SCENE_2D,
                                                 0.05,
                                                 0,
                                                 cannonball_options,
                                                 COUNT(cannonball_options),
                                                 sizeof(struct cannonball_settings),
                                                 cannonball_build};

/* ---- polygon_box ---- */
struct polygon_box_settings {
  int n;
  double size;
  int seed;
  double mu, threshold;
};
static const struct option_decl polygon_box_options[] = {
    ROW(struct polygon_box_settings, n, OPT_INT, "50", "[1,100000]", "number of polygons"),
    ROW(struct polygon_box_settings, size, OPT_REAL, "0.25", "(0,inf)", "scale of the polygons [m]"),
    ROW(struct polygon_box_settings, seed, OPT_INT, "7", "[0,2147483647]",
        "seed of the shapes and rotations (0: drawn from the caller's random stream)"),
    ROW(struct polygon_box_settings, mu, OPT_REAL, "0.2", "[0,inf)", "Coulomb friction coefficient"),
    /* the polygons fall up to ~3 m (~8 m/s): the threshold must cover a step's travel, or contacts are
     * found only after deep penetration (Anitescu-Hart: delta "dependent on the size of the velocity") */
    ROW(struct polygon_box_settings, threshold, OPT_REAL, "0.05", "(0,inf)",
        "contact detection threshold [m]"),
};
static int polygon_box_build(const void *settings, gsl_rng *rng, struct world **w, char *msg, size_t len)
{
  const struct polygon_box_settings *s = settings;
  unsigned long seed;
  if (resolve_seed(s->seed, rng, &seed, msg, len)) return 1;
  if (built(scene_polygon_box(s->n, s->size, seed, s->mu), w, msg, len)) return 1;
  (*w)->threshold = s->threshold;
  return 0;
}
const struct scene_type scene_type_polygon_box = {
    "polygon_box",
    "random convex polygons (hulls of 10 points) dropped into an open box",
    "PEG-style polygons (Williams, Lu & Trinkle 2016 Sec. 6)",
    SCENE_2D,
    0.01,
    1,
    polygon_box_options,
    COUNT(polygon_box_options),
    sizeof(struct polygon_box_settings),
    polygon_box_build};

/* ---- chain and pendulums ---- */
struct chain_settings {
  int links;
  double length, mass, theta0;
};
static const struct option_decl chain_options[] = {
    ROW(struct chain_settings, links, OPT_INT, "5", "[1,100000]", "number of rods (1: a pendulum)"),
    ROW(struct chain_settings, length, OPT_REAL, "0.5", "(0,inf)", "rod length [m]"),
    ROW(struct chain_settings, mass, OPT_REAL, "1", "(0,inf)", "rod mass [kg]"),
    ROW(struct chain_settings, theta0, OPT_REAL, "60", "[-180,180]",
        "initial angle from the downward vertical [degrees]"),
};
static int chain_build(const void *settings, gsl_rng *rng, struct world **w, char *msg, size_t len)
{
  const struct chain_settings *s = settings;
  (void)rng;
  return built(scene_chain_2d(s->links, s->length, s->mass, s->theta0 * DEG), w, msg, len);
}
const struct scene_type scene_type_chain = {"chain",
                                            "rods joined by revolute joints, link 0 pinned at the origin",
                                            "bilateral joints (no contact)",
                                            SCENE_2D,
                                            1e-3,
                                            0,
                                            chain_options,
                                            COUNT(chain_options),
                                            sizeof(struct chain_settings),
                                            chain_build};

struct pendulum_settings {
  double length, mass, theta0;
};
static const struct option_decl pendulum_options[] = {
    ROW(struct pendulum_settings, length, OPT_REAL, "1", "(0,inf)", "distance of the bob from the pivot [m]"),
    ROW(struct pendulum_settings, mass, OPT_REAL, "1", "(0,inf)", "bob mass [kg]"),
    ROW(struct pendulum_settings, theta0, OPT_REAL, "3", "[-180,180]",
        "initial angle from the downward vertical [degrees]"),
};
static int pendulum_build(const void *settings, gsl_rng *rng, struct world **w, char *msg, size_t len)
{
  const struct pendulum_settings *s = settings;
  (void)rng;
  return built(scene_pendulum_2d(s->length, s->mass, s->theta0 * DEG), w, msg, len);
}
static int pendulum_3d_build(const void *settings, gsl_rng *rng, struct world **w, char *msg, size_t len)
{
  const struct pendulum_settings *s = settings;
  (void)rng;
  return built(scene_pendulum_3d(s->length, s->mass, s->theta0 * DEG), w, msg, len);
}
const struct scene_type scene_type_pendulum = {
    "pendulum",
    "a small disc on a revolute joint to the world, at rest, displaced",
    "bilateral joints",
    SCENE_2D,
    1e-3,
    0,
    pendulum_options,
    COUNT(pendulum_options),
    sizeof(struct pendulum_settings),
    pendulum_build};
const struct scene_type scene_type_pendulum_3d = {
    "pendulum_3d",
    "a small sphere on a ball joint, displaced in the x-z plane",
    "bilateral joints",
    SCENE_3D,
    1e-3,
    0,
    pendulum_options,
    COUNT(pendulum_options),
    sizeof(struct pendulum_settings),
    pendulum_3d_build};

/* ---- Egan, Berard & Trinkle: point_corner (Fig. 3), block_hole (Fig. 1) ---- */
struct point_corner_settings {
  double vx, vy, radius;
};
static const struct option_decl point_corner_options[] = {
    ROW(struct point_corner_settings, vx, OPT_REAL, "-2", "", "initial horizontal velocity [m/s]"),
    ROW(struct point_corner_settings, vy, OPT_REAL, "0", "", "initial vertical velocity [m/s]"),
    /* 2^-10: exact in binary, so that 1 + r - r == 1 */
    ROW(struct point_corner_settings, radius, OPT_REAL, "0.0009765625", "(0,1)",
        "radius of the point disc [m]"),
};
static int point_corner_build(const void *settings, gsl_rng *rng, struct world **w, char *msg, size_t len)
{
  const struct point_corner_settings *s = settings;
  (void)rng;
  return built(scene_point_corner(s->vx, s->vy, s->radius), w, msg, len);
}
const struct scene_type scene_type_point_corner = {
    "point_corner",
    "a point mass at the corner of a static L (nonconvex free space), no gravity",
    "Egan, Berard & Trinkle Fig. 3",
    SCENE_2D,
    0.01,
    0,
    point_corner_options,
    COUNT(point_corner_options),
    sizeof(struct point_corner_settings),
    point_corner_build};

struct point_polygon_settings {
  int sides;
  double inradius, x, y, vx, vy, radius;
};
static const struct option_decl point_polygon_options[] = {
    ROW(struct point_polygon_settings, sides, OPT_INT, "3", "[3,64]", "sides of the static regular polygon"),
    ROW(struct point_polygon_settings, inradius, OPT_REAL, "0.01", "(0,inf)", "its inradius [m]"),
    ROW(struct point_polygon_settings, x, OPT_REAL, "0", "", "initial x of the point [m]"),
    ROW(struct point_polygon_settings, y, OPT_REAL, "1", "", "initial y of the point [m]"),
    ROW(struct point_polygon_settings, vx, OPT_REAL, "0", "", "initial horizontal velocity [m/s]"),
    ROW(struct point_polygon_settings, vy, OPT_REAL, "-1", "", "initial vertical velocity [m/s]"),
    ROW(struct point_polygon_settings, radius, OPT_REAL, "0.0009765625", "(0,1)",
        "radius of the point disc [m]"),
};
static int point_polygon_build(const void *settings, gsl_rng *rng, struct world **w, char *msg, size_t len)
{
  const struct point_polygon_settings *s = settings;
  const double x[2] = {s->x, s->y}, v[2] = {s->vx, s->vy};
  (void)rng;
  return built(scene_point_polygon(s->sides, s->inradius, x, v, s->radius), w, msg, len);
}
const struct scene_type scene_type_point_polygon = {
    "point_polygon",
    "a point mass near a small static regular polygon (one nonconvex group of n sides), no gravity",
    "Egan, Berard & Trinkle Fig. 7",
    SCENE_2D,
    0.01,
    0,
    point_polygon_options,
    COUNT(point_polygon_options),
    sizeof(struct point_polygon_settings),
    point_polygon_build};

struct block_hole_settings {
  double speed, mu;
};
static const struct option_decl block_hole_options[] = {
    ROW(struct block_hole_settings, speed, OPT_REAL, "2", "[0,inf)", "initial speed of the block [m/s]"),
    ROW(struct block_hole_settings, mu, OPT_REAL, "0", "[0,inf)", "Coulomb friction coefficient"),
};
static int block_hole_build(const void *settings, gsl_rng *rng, struct world **w, char *msg, size_t len)
{
  const struct block_hole_settings *s = settings;
  (void)rng;
  return built(scene_block_hole(s->speed, s->mu), w, msg, len);
}
const struct scene_type scene_type_block_hole = {
    "block_hole",
    "a block sliding over a hole with a diagonal far side (phantom collision)",
    "Egan, Berard & Trinkle Fig. 1",
    SCENE_2D,
    0.01,
    0,
    block_hole_options,
    COUNT(block_hole_options),
    sizeof(struct block_hole_settings),
    block_hole_build};

/* ---- PEG experiments: triangle_drop, peg_box ---- */
static int triangle_drop_build(const void *settings, gsl_rng *rng, struct world **w, char *msg, size_t len)
{
  (void)settings, (void)rng;
  return built(scene_triangle_drop(), w, msg, len);
}
const struct scene_type scene_type_triangle_drop = {
    "triangle_drop",
    "a triangle dropped onto a static triangle, frictionless",
    "Williams, Lu & Trinkle 2016: the authors' repository (triangle drop)",
    SCENE_2D,
    0.007,
    1,
    NULL,
    0,
    0,
    triangle_drop_build};

struct peg_box_settings {
  double mu;
};
static const struct option_decl peg_box_options[] = {
    ROW(struct peg_box_settings, mu, OPT_REAL, "0", "[0,inf)", "Coulomb friction coefficient"),
};
static int peg_box_build(const void *settings, gsl_rng *rng, struct world **w, char *msg, size_t len)
{
  const struct peg_box_settings *s = settings;
  (void)rng;
  return built(scene_peg_box(s->mu), w, msg, len);
}
const struct scene_type scene_type_peg_box = {
    "peg_box",
    "the static open box of the box-of-polygons experiment (polygons come from a spawner)",
    "Williams, Lu & Trinkle 2016 Sec. 6 (box of polygons)",
    SCENE_2D,
    0.007,
    0,
    peg_box_options,
    COUNT(peg_box_options),
    sizeof(struct peg_box_settings),
    peg_box_build};

/* ---- hex_pyramid ---- */
struct hex_pyramid_settings {
  double radius, height, mass, mu;
};
static const struct option_decl hex_pyramid_options[] = {
    ROW(struct hex_pyramid_settings, radius, OPT_REAL, "1", "(0,inf)", "base circumradius [m]"),
    ROW(struct hex_pyramid_settings, height, OPT_REAL, "1.5", "(0,inf)", "apex height above the base [m]"),
    ROW(struct hex_pyramid_settings, mass, OPT_REAL, "1", "(0,inf)", "mass [kg]"),
    ROW(struct hex_pyramid_settings, mu, OPT_REAL, "0.5", "[0,inf)", "Coulomb friction coefficient"),
};
static int hex_pyramid_build(const void *settings, gsl_rng *rng, struct world **w, char *msg, size_t len)
{
  const struct hex_pyramid_settings *s = settings;
  (void)rng;
  return built(scene_hex_pyramid(s->radius, s->height, s->mass, s->mu), w, msg, len);
}
const struct scene_type scene_type_hex_pyramid = {
    "hex_pyramid",
    "a solid hexagonal pyramid at rest base-down on a plane (six vertex contacts)",
    "Anitescu-Hart Sec. 3, Fig. 1",
    SCENE_3D,
    0.01,
    0,
    hex_pyramid_options,
    COUNT(hex_pyramid_options),
    sizeof(struct hex_pyramid_settings),
    hex_pyramid_build};
