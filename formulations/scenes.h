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
/* Egan Fig. 1: a block (2.4 x 0.4, m = 1, bottom at y = 0, centre x = -1.6, velocity (speed, 0)) sliding on
 * a static ground (one body of three convex parts: x <= 0 with top y = 0; the hole's floor y = -0.55 for
 * 0 <= x <= 0.85; right of the hole, from x = 1 to 12, top y = -0.05, with the diagonal wall from
 * (1, -0.05) down to (0.85, -0.55), 73 degrees) across the hole 0 < x < 1. The block's lower right corner
 * passes 0.05 above the top of the diagonal; the diagonal's line, extended beyond its top, crosses that path
 * at x = 1.015 — the phantom collision of the standard model, which leaves the block 8.5 % of its speed.
 * The block is wider than twice the hole, so it does not tip before its corner is past the hole.
 * Threshold 0.1; g = 9.81; friction mu. Body 1 is the block. */
struct world *scene_block_hole(double speed, double mu);

#endif
