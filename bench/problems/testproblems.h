/* testproblems.h — classic complementarity problems shared by the tests and the solver benchmark
 * (GSL style: every solver is run against the same known problems). Each returns a new problem owned
 * by the caller (cp_destroy), or NULL on bad arguments / allocation failure. Random ones are seeded. */
#ifndef CB_TESTPROBLEMS_H
#define CB_TESTPROBLEMS_H

#include "cp.h"

/* Random symmetric positive definite LCP: M = A A^T / n + 0.1 I with A uniform in [-1, 1),
 * q uniform in [-1, 1) (about half the components active at the solution). */
struct cp_problem *cp_test_spd(int n, unsigned long seed);

/* Murty's matrix: 1 on the diagonal, 2 strictly below, q = -e. Lemke with covering vector e takes
 * exactly 2^n - 1 pivots (Murty 1978). */
struct cp_problem *cp_test_murty(int n);

/* Egan-Berard-Trinkle Fig. 3, a point mass (m = 1, h = 2) at a nonconvex corner with two sides.
 * a1, a2 are the free (p = 0) values of the sides' gap rates a_i (eqs. 10-11): case (a) of the paper is
 * a1 = -1.5, a2 = 0.5 (no contact), case (b) is a1 = -1.5, a2 = -0.5 (contact).
 * max formulation, eqs. 13-22, unknowns (c1, c2, d, g1, g2, h1, h2, p, p1n, p2n), constant gamma:
 * gamma = 100 reproduces B_a = B_b, b_a, b_b of Sec. IV exactly. */
struct cp_problem *cp_test_egan_max(double a1, double a2, double gamma);
/* summation formulation, eqs. 25-28, unknowns (c1, c2, p1n, p2n), eps_over_h = epsilon / h:
 * eps_over_h = 0.01 reproduces B_1 = B_2 of Sec. V; note the paper's b_1 is case (b) and b_2 case (a)
 * (its z_a solves b_2, its z_b1..z_b3 solve b_1). */
struct cp_problem *cp_test_egan_sum(double a1, double a2, double eps_over_h);

/* One 3D box standing flat on the plane z = 0 (half-extents a, b, c; yaw about z; horizontal velocity;
 * gaps psi >= 0 of its 4 bottom corners, ordered (-a,-b), (a,-b), (-a,b), (a,b) in the body frame). */
struct cp_test_box {
  double a, b, c, mass, yaw, vx, vy;
  double gap[4];
};

/* Stewart-Trinkle frictional contact LCP (Egan et al. eqs. 5-7) of independent boxes, each with its 4 bottom
 * corners as contacts and k friction directions d_j = (cos 2 pi j/k, sin 2 pi j/k, 0) (world frame).
 * Unknowns per box: p_n (4), p_f (4k, contact-major), s (4): n = boxes * 4 * (k + 2).
 * Gravity 9.81 along -z acts over the step h. */
struct cp_problem *cp_test_box_lcp(const struct cp_test_box *boxes, int count, int k, double mu, double h);

/* Random boxes for cp_test_box_lcp: non-round sizes, masses, yaw angles and small gaps; sliding != 0 gives
 * each a horizontal velocity of 1-3 m/s, else it is at rest. h = 1e-3 unless h > 0 is given. */
struct cp_problem *cp_test_box_contact(int boxes, int k, double mu, int sliding, double h,
                                       unsigned long seed);
/* Same with corner gaps uniform in [0, gap_max) (cp_test_box_contact: gap_max = 1e-4, the same draws). A
 * corner is active in the step (its q_i = psi_i / h - h g < 0) iff psi_i < h^2 g, so gap_max < h^2 g
 * (9.81e-6 at h = 1e-3) puts every corner in contact: the degenerate resting contact of 4 corners. */
struct cp_problem *cp_test_box_contact_gap(int boxes, int k, double mu, int sliding, double h, double gap_max,
                                           unsigned long seed);

#endif
