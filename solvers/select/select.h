/* select.h — the automatic choice among our solvers (solver `auto`, auto.c): on a linear problem with a
 * symmetric M, or a nonsymmetric one with a positive diagonal (taken as a P-matrix), and n <=
 * -auto_pivoting_max_n, the principal pivoting method (`dantzig`, pivoting.h: no setup, O(|C|^2) per pivot),
 * which is the fastest of ours there; otherwise, and whenever dantzig stops without an answer (a
 * nonsymmetric M with a diagonal entry <= 0, a singular or, M nonsymmetric, non-positive pivot, no blocking
 * variable, its pivot limit), Lemke's method
 * (`lemke`: blocked tableau updates that win from n ~ 100 on). The default crossover is measured by
 * bench/peers (results/reference/peers/peers.md, the SPD classes): the n where lemke's median time per solve
 * falls below dantzig's. */
#ifndef CB_SELECT_H
#define CB_SELECT_H

/* -auto_pivoting_max_n's default, as text for the option table */
#define SELECT_PIVOTING_MAX_N "100"

#endif
