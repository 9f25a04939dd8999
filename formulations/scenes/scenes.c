/* scenes.c — scene builders (see scenes.h): Chakraborty et al. Sec. 6.1 (rolling disc / N-gon),
 * Anitescu-Hart Sec. 4B (cannonball arrangement of discs of diameter 3), the incline, box stacks, chains
 * and random convex polygons in a box (PEG-style hulls of 10 random points). */
#include "scenes.h"

#include "geom2d.h"
#include "hull3d.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

static struct world *finish(struct world *w, int ok)
{
  if (!ok || world_finalize(w) != 0) world_destroy(&w);
  return w;
}

static int add_ground(struct world *w)
{
  int g = world_add_body(w, 1, 0.0, 0.0);
  return g >= 0 && world_add_halfplane(w, g, 0.0, 1.0, 0.0) >= 0;
}

/* A dynamic box body centred at (x, y), rotation theta; returns the body index or -1. */
static int add_box(struct world *w, double x, double y, double theta, double wdt, double hgt, double m)
{
  double xy[8] = {-wdt / 2, -hgt / 2, wdt / 2, -hgt / 2, wdt / 2, hgt / 2, -wdt / 2, hgt / 2};
  int b = world_add_body(w, 0, m, m * (wdt * wdt + hgt * hgt) / 12.0);
  if (b < 0 || world_add_polygon(w, b, 4, xy) < 0) return -1;
  w->bodies[b].x[0] = x;
  w->bodies[b].x[1] = y;
  w->bodies[b].theta = theta;
  return b;
}

struct world *scene_disc_on_line(double r, double m, double y0, double mu)
{
  struct world *w = world_create(2);
  if (!w) return NULL;
  w->mu = mu;
  int ok = add_ground(w);
  int b = ok ? world_add_body(w, 0, m, 0.5 * m * r * r) : -1;
  ok = ok && b >= 0 && world_add_disc(w, b, 0.0, 0.0, r) >= 0;
  if (ok) w->bodies[b].x[1] = y0;
  return finish(w, ok);
}

struct world *scene_ngon(int n, double r, double m, double mu, const double nu0[3])
{
  struct world *w = world_create(2);
  double *xy = malloc((size_t)(n > 0 ? n : 1) * 2 * sizeof *xy);
  if (!w || !xy || n < 3) {
    free(xy);
    world_destroy(&w);
    return NULL;
  }
  w->mu = mu;
  for (int i = 0; i < n; i++) {
    double a = -M_PI / 2 + 2.0 * M_PI * i / n;
    xy[2 * i] = r * cos(a);
    xy[2 * i + 1] = r * sin(a);
  }
  int ok = add_ground(w);
  int b = ok ? world_add_body(w, 0, m, 1.0) : -1;
  ok = ok && b >= 0 && world_add_polygon(w, b, n, xy) >= 0;
  free(xy);
  if (ok) {
    struct body *bd = &w->bodies[b];
    bd->inertia = polygon_inertia(w->shapes[bd->shape_begin].polygon, m);
    bd->x[1] = r;
    bd->v[0] = nu0[0];
    bd->v[1] = nu0[1];
    bd->w[2] = nu0[2];
  }
  return finish(w, ok);
}

struct world *scene_incline_2d(double theta, double mu, double wdt, double hgt, double m)
{
  struct world *w = world_create(2);
  if (!w) return NULL;
  w->mu = mu;
  int g = world_add_body(w, 1, 0.0, 0.0);
  int ok = g >= 0 && world_add_halfplane(w, g, -sin(theta), cos(theta), 0.0) >= 0;
  /* the block's centre sits hgt/2 above the incline along its normal */
  ok = ok && add_box(w, -0.5 * hgt * sin(theta), 0.5 * hgt * cos(theta), theta, wdt, hgt, m) >= 0;
  return finish(w, ok);
}

struct world *scene_incline_3d(double theta, double mu, double hx, double hy, double hz, double m)
{
  struct world *w = world_create(3);
  if (!w) return NULL;
  w->mu = mu;
  const double n[3] = {-sin(theta), 0.0, cos(theta)};
  int g = world_add_body(w, 1, 0.0, 0.0);
  int ok = g >= 0 && world_add_plane(w, g, n, 0.0) >= 0;
  int b = ok ? world_add_body(w, 0, m, 1.0) : -1;
  struct polyhedron *ph = ok ? hull3d_box(hx, hy, hz) : NULL;
  ok = ok && b >= 0 && ph && world_add_polyhedron(w, b, ph) >= 0;
  if (ok) {
    struct body *bd = &w->bodies[b];
    hull3d_central_inertia(w->shapes[bd->shape_begin].polyhedron, m, bd->inertia3);
    /* rotation about y by -theta takes the box's z axis onto n */
    bd->q[0] = cos(0.5 * theta);
    bd->q[2] = -sin(0.5 * theta);
    for (int k = 0; k < 3; k++)
      bd->x[k] = hz * n[k];
  }
  return finish(w, ok);
}

struct world *scene_box_stack(int n, double wdt, double hgt, double m, double mu, double taper)
{
  struct world *w = world_create(2);
  if (!w) return NULL;
  w->mu = mu;
  int ok = add_ground(w);
  for (int i = 0; i < n && ok; i++)
    ok = add_box(w, 0.0, hgt * (i + 0.5), 0.0, wdt * (1.0 - taper * i), hgt, m) >= 0;
  return finish(w, ok);
}

struct world *scene_cannonball(int rows, double m, double mu, int walls)
{
  const double r = 1.5, dy = 3.0 * sqrt(3.0) / 2.0;
  struct world *w = world_create(2);
  if (!w) return NULL;
  w->mu = mu;
  int ok = add_ground(w);
  if (walls && ok) {
    int l = world_add_body(w, 1, 0.0, 0.0);
    ok = l >= 0 && world_add_halfplane(w, l, 1.0, 0.0, -r) >= 0;
    int rt = ok ? world_add_body(w, 1, 0.0, 0.0) : -1;
    ok = ok && rt >= 0 && world_add_halfplane(w, rt, -1.0, 0.0, -(3.0 * (rows - 1) + r)) >= 0;
  }
  for (int row = 0; row < rows && ok; row++)
    for (int i = 0; i < rows - row && ok; i++) {
      int b = world_add_body(w, 0, m, 0.5 * m * r * r);
      ok = b >= 0 && world_add_disc(w, b, 0.0, 0.0, r) >= 0;
      if (ok) {
        w->bodies[b].x[0] = 3.0 * i + r * row;
        w->bodies[b].x[1] = r + dy * row;
      }
    }
  return finish(w, ok);
}

struct world *scene_polygon_box(int n, double size, unsigned long seed, double mu)
{
  struct world *w = world_create(2);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!w || !rng) {
    world_destroy(&w);
    if (rng) gsl_rng_free(rng);
    return NULL;
  }
  gsl_rng_set(rng, seed);
  w->mu = mu;
  int per_row = (int)ceil(sqrt((double)n));
  double pitch = 1.5 * size, hw = 0.5 * pitch * per_row + size;
  int ok = add_ground(w);
  int l = ok ? world_add_body(w, 1, 0.0, 0.0) : -1;
  ok = ok && l >= 0 && world_add_halfplane(w, l, 1.0, 0.0, -hw) >= 0;
  int rt = ok ? world_add_body(w, 1, 0.0, 0.0) : -1;
  ok = ok && rt >= 0 && world_add_halfplane(w, rt, -1.0, 0.0, -hw) >= 0;
  for (int k = 0; k < n && ok; k++) {
    double xy[20], mx = 0.0, my = 0.0;
    for (int i = 0; i < 10; i++) {
      xy[2 * i] = gsl_rng_uniform(rng) - 0.5;
      xy[2 * i + 1] = gsl_rng_uniform(rng) - 0.5;
      mx += xy[2 * i] / 10.0;
      my += xy[2 * i + 1] / 10.0;
    }
    for (int i = 0; i < 10; i++) {
      xy[2 * i] = (xy[2 * i] - mx) * size;
      xy[2 * i + 1] = (xy[2 * i + 1] - my) * size;
    }
    int b = world_add_body(w, 0, 1.0, 1.0);
    ok = b >= 0 && world_add_polygon(w, b, 10, xy) >= 0;
    if (!ok) break;
    struct body *bd = &w->bodies[b];
    bd->inertia = polygon_inertia(w->shapes[bd->shape_begin].polygon, 1.0);
    bd->x[0] = -hw + size + pitch * (k % per_row) + 0.5 * pitch;
    int row = k / per_row;
    bd->x[1] = pitch * row + 0.6 * pitch;
    bd->theta = 2.0 * M_PI * gsl_rng_uniform(rng);
  }
  gsl_rng_free(rng);
  return finish(w, ok);
}

struct world *scene_chain_2d(int links, double len, double m, double theta0)
{
  struct world *w = world_create(2);
  if (!w) return NULL;
  double ux = sin(theta0), uy = -cos(theta0), zero[3] = {0.0, 0.0, 0.0};
  int ok = 1;
  for (int i = 0; i < links && ok; i++) {
    double cx = (i + 0.5) * len * ux, cy = (i + 0.5) * len * uy;
    /* the rod's long axis is its body x axis, rotated onto the chain direction */
    int b = add_box(w, cx, cy, theta0 - M_PI / 2, len, 0.05 * len, m);
    ok = b >= 0;
    if (!ok) break;
    w->bodies[b].group = 1;
    double pa[3] = {-0.5 * len, 0.0, 0.0}, pb[3] = {0.5 * len, 0.0, 0.0};
    ok = world_add_joint(w, JOINT_REVOLUTE_2D, b, i == 0 ? -1 : b - 1, pa, i == 0 ? zero : pb) >= 0;
  }
  return finish(w, ok);
}

struct world *scene_pendulum_2d(double len, double m, double theta0)
{
  struct world *w = world_create(2);
  if (!w) return NULL;
  const double r = 0.01;
  int b = world_add_body(w, 0, m, 0.5 * m * r * r);
  int ok = b >= 0 && world_add_disc(w, b, 0.0, 0.0, r) >= 0;
  if (ok) {
    w->bodies[b].x[0] = len * sin(theta0);
    w->bodies[b].x[1] = -len * cos(theta0);
    /* the pivot expressed in the bob's frame (theta = 0): the offset from bob to origin */
    double pa[3] = {-len * sin(theta0), len * cos(theta0), 0.0}, pb[3] = {0.0, 0.0, 0.0};
    ok = world_add_joint(w, JOINT_REVOLUTE_2D, b, -1, pa, pb) >= 0;
  }
  return finish(w, ok);
}

struct world *scene_pendulum_3d(double len, double m, double theta0)
{
  struct world *w = world_create(3);
  if (!w) return NULL;
  const double r = 0.01, c[3] = {0.0, 0.0, 0.0};
  int b = world_add_body(w, 0, m, 0.4 * m * r * r);
  int ok = b >= 0 && world_add_sphere(w, b, c, r) >= 0;
  if (ok) {
    w->bodies[b].x[0] = len * sin(theta0);
    w->bodies[b].x[2] = -len * cos(theta0);
    double pa[3] = {-len * sin(theta0), 0.0, len * cos(theta0)}, pb[3] = {0.0, 0.0, 0.0};
    ok = world_add_joint(w, JOINT_BALL_3D, b, -1, pa, pb) >= 0;
  }
  return finish(w, ok);
}

/* A static body made of axis-aligned boxes [x0, x1] x [y0, y1] (4 doubles each) and optional extra polygons.
 */
static int add_static_boxes(struct world *w, int body, int count, const double *boxes)
{
  for (int i = 0; i < count; i++) {
    const double *b = boxes + 4 * i;
    double xy[8] = {b[0], b[2], b[1], b[2], b[1], b[3], b[0], b[3]};
    if (world_add_polygon(w, body, 4, xy) < 0) return 0;
  }
  return 1;
}

struct world *scene_point_corner(double vx, double vy, double r)
{
  struct world *w = world_create(2);
  if (!w) return NULL;
  w->gravity[1] = 0.0;
  w->mu = 0.0;
  w->threshold = 4.0;
  /* the L: a vertical bar whose top-right corner is the origin, and a horizontal bar left of it */
  const double bars[8] = {-3.0, 0.0, -6.0, 0.0, -8.0, -3.0, -3.0, 0.0};
  int g = world_add_body(w, 1, 0.0, 0.0);
  int ok = g >= 0 && add_static_boxes(w, g, 2, bars);
  int b = ok ? world_add_body(w, 0, 1.0, 0.5 * r * r) : -1;
  ok = ok && b >= 0 && world_add_disc(w, b, 0.0, 0.0, r) >= 0;
  if (ok) {
    w->bodies[b].x[0] = w->bodies[b].x[1] = 1.0 + r;
    w->bodies[b].v[0] = vx;
    w->bodies[b].v[1] = vy;
  }
  return finish(w, ok);
}

struct world *scene_point_polygon(int sides, double inradius, const double x[2], const double v[2], double r)
{
  struct world *w = world_create(2);
  if (!w || sides < 3 || sides > 64) return finish(w, 0);
  w->gravity[1] = 0.0;
  w->mu = 0.0;
  w->threshold = 4.0;
  /* a regular polygon centred at the origin with its bottom side horizontal: vertex k at angle
   * -pi/2 + (2k + 1) pi/n, circumradius inradius / cos(pi/n) */
  double xy[128], R = inradius / cos(M_PI / sides);
  for (int k = 0; k < sides; k++) {
    double a = -0.5 * M_PI + (2.0 * k + 1.0) * M_PI / sides;
    xy[2 * k] = R * cos(a);
    xy[2 * k + 1] = R * sin(a);
  }
  int g = world_add_body(w, 1, 0.0, 0.0);
  int ok = g >= 0 && world_add_polygon(w, g, sides, xy) >= 0;
  int b = ok ? world_add_body(w, 0, 1.0, 0.5 * r * r) : -1;
  ok = ok && b >= 0 && world_add_disc(w, b, 0.0, 0.0, r) >= 0;
  if (ok) {
    w->bodies[b].x[0] = x[0], w->bodies[b].x[1] = x[1];
    w->bodies[b].v[0] = v[0], w->bodies[b].v[1] = v[1];
  }
  return finish(w, ok);
}

struct world *scene_block_hole(double speed, double mu)
{
  struct world *w = world_create(2);
  if (!w) return NULL;
  w->mu = mu;
  w->threshold = 0.1;
  /* ground: left of the hole, the hole's floor, and right of it, 0.005 lower, with the diagonal wall
   * (1, -0.005)-(0.85, -0.505) */
  const double boxes[8] = {-6.0, 0.0, -1.0, 0.0, 0.0, 0.85, -1.0, -0.505};
  const double right[10] = {0.85, -1.0, 12.0, -1.0, 12.0, -0.005, 1.0, -0.005, 0.85, -0.505};
  int g = world_add_body(w, 1, 0.0, 0.0);
  int ok = g >= 0 && add_static_boxes(w, g, 2, boxes) && world_add_polygon(w, g, 5, right) >= 0;
  ok = ok && add_box(w, -1.6, 0.2, 0.0, 2.4, 0.4, 1.0) >= 0;
  if (ok) w->bodies[w->nb - 1].v[0] = speed;
  return finish(w, ok);
}

struct world *scene_hex_pyramid(double radius, double height, double m, double mu)
{
  struct world *w = world_create(3);
  if (!w) return NULL;
  w->mu = mu;
  double xyz[21];
  for (int j = 0; j < 6; j++) {
    xyz[3 * j] = radius * cos(M_PI / 3.0 * j);
    xyz[3 * j + 1] = radius * sin(M_PI / 3.0 * j);
    xyz[3 * j + 2] = 0.0;
  }
  xyz[18] = xyz[19] = 0.0;
  xyz[20] = height;
  const double up[3] = {0.0, 0.0, 1.0};
  int g = world_add_body(w, 1, 0.0, 0.0);
  int ok = g >= 0 && world_add_plane(w, g, up, 0.0) >= 0;
  struct polyhedron *ph = ok ? hull3d_create(7, xyz) : NULL;
  int b = ph ? world_add_body(w, 0, m, 1.0) : -1;
  if (ph) {
    /* the centroid (height / 4 above the base, on the axis) becomes the body origin */
    double base = -ph->centroid[2];
    hull3d_centre(ph);
    if (b >= 0 && world_add_polyhedron(w, b, ph) >= 0) {
      struct body *bd = &w->bodies[b];
      hull3d_central_inertia(w->shapes[bd->shape_begin].polyhedron, m, bd->inertia3);
      bd->x[2] = -base;
    } else {
      polyhedron_free(ph);
      ok = 0;
    }
  }
  return finish(w, ok && ph);
}
