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
/* Anitescu-Hart Sec. 3 (Fig. 1): a solid regular hexagonal pyramid (base circumradius `radius`, apex
 * `height` above the base, mass m) resting base-down at rest on a static plane z <= 0 (body 0); base
 * vertex j (j = 0..5, the paper's j + 1) at angle 60 j degrees about the vertical axis through the
 * centre of mass (body 1, origin at the centroid). Six vertex contacts with gap 0, gravity -z. */
struct world *scene_hex_pyramid(double radius, double height, double m, double mu);

#endif
