/* geom2d.h — 2D convex geometry: polygons from points (monotone-chain hull), convex clipping and exact
 * intersection area (Sutherland-Hodgman against a convex clip polygon), mass properties.
 * Polygons are counter-clockwise, xy interleaved. */
#ifndef CB_GEOM2D_H
#define CB_GEOM2D_H

#include "world.h"

/* Convex hull of n points into hull (room for n points, counter-clockwise, no collinear points);
 * returns the hull size (< 3 when degenerate). */
int geom2d_hull(int n, const double *xy, double *hull);
/* Signed area (positive for counter-clockwise). */
double geom2d_area(int n, const double *xy);
/* Intersection of two convex counter-clockwise polygons; out needs room for na + nb points, work for
 * 8 (na + nb) doubles. Returns the vertex count of the intersection (0 when disjoint). */
int geom2d_clip(int na, const double *a, int nb, const double *b, double *out, double *work);
/* Exact intersection area of two convex counter-clockwise polygons. */
double geom2d_overlap_area(int na, const double *a, int nb, const double *b);
/* World-frame vertices of a polygon part: out has 2 n doubles. */
void geom2d_world_polygon(const struct world *w, const struct shape *s, double *out);
/* Mass properties of a uniform polygon about the body origin: moment of inertia for a given mass. */
double geom2d_polygon_inertia(const struct polygon *p, double mass);

/* Exact overlap (accuracy metrics): the intersection area of two world-placed polygon parts (2D). */
double world_polygon_overlap(const struct world *w, int sa, int sb);
/* Sum over body pairs (excluding static-static) of the overlap area (2D) of their polygon parts. */
double world_total_overlap_2d(const struct world *w);

#endif
