/* geom2d.h — 2D convex geometry on point arrays (the model's math room: no world, no shapes): convex hull
 * (monotone chain), signed area, convex clipping and exact intersection area (Sutherland-Hodgman against a
 * convex clip polygon). Polygons are counter-clockwise, xy interleaved. */
#ifndef CB_GEOM2D_H
#define CB_GEOM2D_H

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

#endif
