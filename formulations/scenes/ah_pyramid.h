/* ah_pyramid.h — Anitescu-Hart Sec. 3: the hexagonal pyramid at rest on a table, whose mixed LCP (6)-(7)
 * has a nonconvex solution set for every mu > 0. Builds the problem from scene_hex_pyramid through the
 * anitescu_potra formulation (unknowns [v (6) | c_n (6); beta (6 k); lambda (6)], one contact per base
 * vertex), writes the paper's points in that layout, and derives the reduced problem the paper analyses
 * (zero tangential impulse: the beta unknowns and their rows D'v + E lambda removed). */
#ifndef CB_AH_PYRAMID_H
#define CB_AH_PYRAMID_H

#include "cp.h"
#include "world.h"

struct ah_pyramid {
  struct world *w;
  struct cp_problem *p; /* eq. 6-7 for one step of size h from rest */
  int nd, nc, kf;       /* 6 velocities, 6 contacts, k friction directions per contact */
  int vertex[6];        /* contact i sits at base vertex vertex[i] (0..5; the paper's vertex + 1) */
  double hmg;           /* h m g: the total normal impulse that holds the pyramid */
};

/* radius 1, height 1.5, mass 1, the given mu, h and k (-friction_dirs); 0 on success, 1 on failure
 * (including a detection that does not give exactly six vertex contacts with upward normals). */
int ah_pyramid_create(double mu, double h, int friction_dirs, struct ah_pyramid **out);
void ah_pyramid_destroy(struct ah_pyramid **a);

/* z (a->p->n entries): v = 0, beta = 0, c_n = load[j] and lambda = lam[j] at base vertex j. */
void ah_pyramid_point(const struct ah_pyramid *a, const double load[6], const double lam[6], double *z);
/* The paper's solution s (1 or 2): c_n = hmg / 3 on vertices 1, 3, 5 (s = 1; 2, 4, 6 for s = 2), 0 and
 * lambda = 1 on the others. */
void ah_pyramid_paper_solution(const struct ah_pyramid *a, int s, double *z);
/* Per-vertex values of a point z of the full problem. */
void ah_pyramid_loads(const struct ah_pyramid *a, const double *z, double load[6], double lam[6],
                      double beta_sum[6]);

/* The reduced problem (unknowns [v | c_n; lambda]); caller destroys. */
struct cp_problem *ah_pyramid_reduced(const struct ah_pyramid *a);
/* Its point zr lifted to the full problem's layout with beta = 0. */
void ah_pyramid_lift(const struct ah_pyramid *a, const double *zr, double *z);

#endif
