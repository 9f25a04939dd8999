/* testncp.h — nonlinear (callback) complementarity problems with known solutions, shared by the tests and
 * the solver benchmark: mixed NCPs (free rows + complementarity rows) as the geometrically implicit step
 * of Chakraborty, Berard, Akella, Trinkle produces them. Each returns a new problem owned by the caller
 * (cp_destroy frees its callback data too: the data live in the same allocation as the problem), or NULL
 * on bad arguments / allocation failure. Random ones are seeded. */
#ifndef CB_TESTNCP_H
#define CB_TESTNCP_H

#include "cp.h"

/* The disc on a plane of Sec. 6.1: unit disc (f_1 = |x - q|^2 - 1), plane y = 0, state before the step. */
struct cp_test_disc {
  double qx, qy;        /* centre */
  double vx, vy, omega; /* velocity */
  double m, J, mu, g, h;
};

/* Its step as a mixed NCP, eqs. (41)-(47), 11 unknowns in the order
 *   z = (v_x, v_y, omega, a_1x, a_1y, a_2x, l_2, p_t | l_1, p_n, sigma)
 * paired with the rows (41) x3, (42) x2, (43) x2, (44) (free) | (45), (46), (47) (complementary);
 * backward Euler q' = q + h v. (45) is the KKT form 0 <= l_1 perp -f_1(a_1) >= 0 of eq. (40) (the printed
 * (45) has f_1(a_1) >= 0; both hold exactly at the disc's boundary, where every solution puts a_1). */
struct cp_problem *cp_test_disc_step(const struct cp_test_disc *disc);
/* The paper's rolling state: q = (0, 1), v = (-3, 0, 3), m = 1, J = 0.5, mu = 0.4, g = 9.81, step h. */
struct cp_test_disc cp_test_disc_rolling(double h);
/* The analytic solution of a step of a disc resting on the plane (qy = 1, vy = 0) that rolls (vx + omega
 * = 0: v, omega unchanged, p_n = m g h, p_t = 0, sigma = 0) or slides (|vx + omega| > mu g h (1 + m/J):
 * p_t = -mu p_n sign(v_t), sigma = |v_t'|). 0 when the state is neither (not on the plane, or sticking
 * from slip). */
int cp_test_disc_solution(const struct cp_test_disc *disc, double *z);
/* The state after a step with solution z (q' = q + h v', v = v'). */
void cp_test_disc_advance(struct cp_test_disc *disc, const double *z);

/* A strictly monotone mixed NCP F(z) = A z + kappa z.^3 + r with A = S + K (S symmetric positive
 * definite, K skew), n_free free unknowns first, then n_comp complementary ones; r is chosen so that a
 * random z* (free: in [-1, 1]; complementary: a third active z* > 0, a third inactive with F_i(z*) > 0,
 * a third degenerate z*_i = F_i(z*) = 0) is its unique solution, written to z_star (n entries) if given. */
struct cp_problem *cp_test_ncp_mixed(int n_free, int n_comp, double kappa, unsigned long seed,
                                     double *z_star);

/* Kojima-Shindo's NCP (4 unknowns, nonlinear, not monotone): solutions (sqrt(6)/2, 0, 0, 1/2) and the
 * degenerate (1, 0, 3, 0). */
struct cp_problem *cp_test_kojima_shindo(void);

/* The mixed linear MCP of Siconos numerics' MCP test (numerics/src/MCP/test/MCP_2_test1.c; the Debian
 * package ships no MCP test data): n = 10, 5 free then 5 complementary unknowns, M tridiagonal (2 on the
 * diagonal, 1 beside), q_i = 7 - i (0-based), posed through callbacks. M is positive definite: one
 * solution. */
struct cp_problem *cp_test_mcp_siconos(void);

#endif
