/* scenes.h — scene builders for the known-answer tests and the drivers. Each returns a finalised world
 * (NULL on failure); g = 9.81 unless said otherwise. Units SI. */
#ifndef CB_SCENES_H
#define CB_SCENES_H

#include "world.h"

/* Static ground y <= 0 (2D, body 0) and one disc of radius r, mass m (uniform) centred at (0, y0). */
struct world *scene_disc_on_line(double r, double m, double y0, double mu);
/* A regular N-gon of circumradius r, mass m (inertia of the uniform polygon), vertex 0 at the bottom,
 * centred at (0, r) on the ground y <= 0; velocity (vx, vy, omega). Chakraborty et al. Sec. 6.1. */
struct world *scene_ngon(int n, double r, double m, double mu, const double nu0[3]);
/* Static ground y <= 0 (body 0) and one uniform superellipse (semi-axes a along x, b along y, even exponent
 * p; p = 2 the ellipse) of mass m centred at (0, b), resting on its flank, velocity nu0
 * (scenes_superellipse.c) — or the N-gon inscribed in it, vertex 0 at the bottom (0, -b). NULL on a bad
 * shape. */
struct world *scene_superellipse_on_line(double a, double b, int p, double m, double mu, const double nu0[3]);
struct world *scene_superellipse_ngon(int n, double a, double b, int p, double m, double mu,
                                      const double nu0[3]);
/* Block (w x hgt, mass m) resting on an incline of angle theta (static half-plane through the origin,
 * normal (-sin, cos)); body 1 is the block, initially at rest, its bottom face on the incline. */
struct world *scene_incline_2d(double theta, double mu, double wdt, double hgt, double m);
/* 3D: a box (half extents hx, hy, hz, mass m) resting on a static plane through the origin tilted by
 * theta about the y axis (normal (-sin theta, 0, cos theta)); downhill is -x' along (-cos, 0, -sin), which
 * formulation_tangents makes a friction direction for every even k. Body 1 is the box, at rest. */
struct world *scene_incline_3d(double theta, double mu, double hx, double hy, double hz, double m);
/* n boxes (height hgt, mass m; box i has width wdt (1 - taper i)) stacked on the ground, touching, at
 * rest. taper = 0 gives equal widths: every interface has coincident corners. */
struct world *scene_box_stack(int n, double wdt, double hgt, double m, double mu, double taper);
/* Anitescu-Hart Sec. 4B cannonball arrangement: `rows` rows of discs of diameter 3 (bottom row `rows`
 * discs in line contact, each row above one fewer, hexagonally packed) on a fixed plank y <= 0; discs of
 * mass m. walls != 0 adds static walls x <= left, x >= right touching the end discs of the bottom row. */
struct world *scene_cannonball(int rows, double m, double mu, int walls);
/* n random convex polygons (hulls of 10 uniform points in [-0.5, 0.5]^2 scaled by `size`) placed on a
 * grid inside an open box of half-width hw (floor y <= 0, walls |x| >= hw), seeded by seed. */
struct world *scene_polygon_box(int n, double size, unsigned long seed, double mu);
/* A chain of `links` rods (as thin boxes of length len, mass m) joined by revolute joints; link 0 pinned to
 * the world at the origin; all links initially along the direction at angle theta0 from the downward
 * vertical. links = 1 is a pendulum. Jointed links never collide. */
struct world *scene_chain_2d(int links, double len, double m, double theta0);
/* A simple pendulum: a small disc (radius 0.01, mass m) at distance len from a revolute joint to the world
 * at the origin, displaced by theta0 from the downward vertical, at rest. */
struct world *scene_pendulum_2d(double len, double m, double theta0);
/* 3D: the same pendulum (a sphere of radius 0.01) on a ball joint at the origin, displaced in the x-z plane,
 * gravity along -z. */
struct world *scene_pendulum_3d(double len, double m, double theta0);
/* Egan, Berard & Trinkle Fig. 3: a point mass (a disc of radius r, m = 1, centred at (1 + r, 1 + r) so that
 * its distance to both sides is 1) at the corner x = 0 / y = 0 of a static L-shaped obstacle made of two
 * convex parts (a vertical bar [-3, 0] x [-6, 0], whose top-right corner is the origin, and a horizontal bar
 * [-8, -3] x [-3, 0]): the free space near the corner is the union x >= 0 or y >= 0. Velocity (vx, vy), no
 * gravity, frictionless, threshold 4 (the two sides at the corner, not the L's far edges). Body 1. */
struct world *scene_point_corner(double vx, double vy, double r);
/* Egan et al. Fig. 7: a point disc of radius r at x with velocity v near a static regular polygon of `sides`
 * (3-64) sides and the given inradius, centred at the origin, bottom side horizontal; no gravity. */
struct world *scene_point_polygon(int sides, double inradius, const double x[2], const double v[2], double r);
/* Egan Fig. 1: a block (2.4 x 0.4, m = 1, bottom at y = 0, centre x = -1.6, velocity (speed, 0)) sliding on
 * a static ground (one body of three convex parts: x <= 0 with top y = 0; the hole's floor y = -0.55 for
 * 0 <= x <= 0.85; right of the hole, from x = 1 to 12, top y = -0.05, with the diagonal wall from
 * (1, -0.05) down to (0.85, -0.55), 73 degrees) across the hole 0 < x < 1. The block's lower right corner
 * passes 0.05 above the top of the diagonal; the diagonal's line, extended beyond its top, crosses that path
 * at x = 1.015 — the phantom collision of the standard model, which leaves the block 8.5 % of its speed.
 * The block is wider than twice the hole, so it does not tip before its corner is past the hole.
 * Threshold 0.1; g = 9.81; friction mu. Body 1 is the block. */
struct world *scene_block_hole(double speed, double mu);

/* ---- The PEG paper's experiments (Williams, Lu & Trinkle 2016; ../shared/notes/peg-experiments.md),
 * implemented in scenes_peg.c. ---- */

/* Triangle drop: a static equilateral triangle of circumradius 2 sqrt(2) at the origin (body 0) and a
 * falling one of circumradius sqrt(2) (mass 1, J 0.649519) at (1, 5), rotation pi/3, at rest (body 1);
 * frictionless, g = 9.81, standard-model threshold 0.07. */
struct world *scene_triangle_drop(void);

/* Box of polygons: the static open box (body 0: floor x in [-1, 1], y in [-0.4, 0]; walls x in
 * [-1.2, -0.8] and [0.8, 1.2], y in [-0.4, 1.6], three rectangle parts), g = 9.8, friction mu, standard-
 * model threshold 0.07; polygons are added by the spawner. */
struct world *scene_peg_box(double mu);

/* Box of polyhedra (scenes_peg3d.c): the static open box of five triangulated blocks, g = 9.81, friction mu,
 * standard-model threshold `threshold`; and one icosahedron (circumradius 0.5, mass 0.5, J = 0.1309017 I)
 * added at (3, 0, 2) with v = (-5, 0, 0), turned 0.2 rad about (1, 2, 3) / sqrt 14, the world re-finalised:
 * its body index, or -1. */
struct world *scene_peg_box3d(double threshold, double mu);
int scene_peg_box3d_add_icosahedron(struct world *w);

#define PEG_BODY_MAX_VERTS 16
/* One polygon of a body set: body-frame vertices (counter-clockwise), initial state, mass properties. */
struct peg_body_spec {
  int n;
  double xy[2 * PEG_BODY_MAX_VERTS];
  double x[2], theta, v[2], w, mass, inertia;
};

/* Reads set `set` (1..10 = a..j) of the body-set file (../shared/data/peg/box2d_bodysets.txt format: one
 * polygon per line, "set idx x0 y0 rot0 vx0 vy0 w0 mass J nverts x1 y1 ... xn yn", # comments) into specs
 * (room for max), in line order (= spawn order). Every line is validated, whatever its set. Returns 0 and
 * *n on success; 1 with err = "FILE:LINE: what is wrong" on bad input or when the set is absent. */
/* The body-set file's default place: $CB_SHARED_DATA (else ../shared/data) + /peg/box2d_bodysets.txt. */
void scene_peg_bodyset_default_path(char *path, size_t len);
int scene_peg_bodyset_load(const char *path, int set, struct peg_body_spec *specs, int max, int *n, char *err,
                           size_t errlen);
/* Our generator (GSL mt19937 seeded with seed): n polygons, each the convex hull of 10 points uniform in
 * the unit square shifted by their mean, scaled by 0.25, random rotation in [0, 2 pi), mass 0.25,
 * J 0.003; body k (1-based) starts at (-0.5, 0.8) with vx = +0.7 when k is odd, else at (0.5, 0.8) with
 * vx = -0.7. Returns 0, or 1 on failure. */
int scene_peg_bodyset_generate(unsigned long seed, int n, struct peg_body_spec *specs);
/* Adds one dynamic polygon body in its initial state and re-finalises the world; the body index or -1. */
int scene_peg_add_body(struct world *w, const struct peg_body_spec *s);

/* Spawning rule: body k (1-based) enters before step 1 + (k - 1) round(interval / h) (round half away from
 * zero). Drivers call scene_spawner_before_step before taking step `step` (1-based). */
struct scene_spawner {
  const struct peg_body_spec *specs;
  int n, added;
  long every; /* steps between spawns */
};
void scene_spawner_init(struct scene_spawner *sp, const struct peg_body_spec *specs, int n, double interval,
                        double h);
long scene_spawner_step_of(const struct scene_spawner *sp, int k); /* the step body k (1-based) enters */
/* Adds the bodies due at this step; returns how many were added, -1 on failure. */
int scene_spawner_before_step(struct scene_spawner *sp, struct world *w, long step);

/* floor(T / h) with T / h in floating point: the authors' step count (5 / 0.007 gives 714). */
/* Anitescu-Hart Sec. 3 (Fig. 1): a solid regular hexagonal pyramid (base circumradius `radius`, apex
 * `height` above the base, mass m) resting base-down at rest on a static plane z <= 0 (body 0); base
 * vertex j (j = 0..5, the paper's j + 1) at angle 60 j degrees about the vertical axis through the
 * centre of mass (body 1, origin at the centroid). Six vertex contacts with gap 0, gravity -z. */
struct world *scene_hex_pyramid(double radius, double height, double m, double mu);

#endif
