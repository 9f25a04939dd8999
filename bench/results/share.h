/* share.h — the share of tasks with a 0/1 outcome and its Wilson score interval (E. B. Wilson, "Probable
 * inference, the law of succession, and statistical inference", JASA 22 (1927) 209-212): the interval that
 * stays inside [0, 1] and keeps its coverage near 0 and 1, where the normal approximation collapses to a
 * point (a cell of 126 trials with no success). Used by the summaries and plots of share columns (sweep.h)
 * and by bench_grasp_map. */
#ifndef CB_SHARE_H
#define CB_SHARE_H

#define SHARE_Z95 1.959963984540054 /* the standard normal's 97.5 % quantile: a two-sided 95 % interval */

/* The 95 % Wilson interval of k successes in n trials into lo, hi (NAN, NAN when n = 0). */
void share_wilson(long k, long n, double *lo, double *hi);
/* How many of the n values v are 1 (a value >= 0.5 counts as 1). */
long share_count(const double *v, int n);
/* Of the n values v (each 0 or 1; a value >= 0.5 counts as 1): q[0] the share, q[1], q[2] its 95 % Wilson
 * interval (NAN when n = 0). */
void share_of_values(const double *v, int n, double q[3]);
/* The same from the count: k of n values are 1. */
void share_of_counts(long k, long n, double q[3]);
/* The 95 % interval of the difference k2/n2 - k1/n1 of two shares by Newcombe's hybrid score method (R. G.
 * Newcombe, "Interval estimation for the difference between independent proportions: comparison of eleven
 * methods", Stat. Med. 17 (1998) 873-890, method 10: each share's Wilson interval combined by the square-root
 * rule), which keeps its coverage where the Wald interval of the difference collapses (3 of 3 against 2 of
 * 3); NAN, NAN when n1 or n2 is 0. */
void share_difference(long k1, long n1, long k2, long n2, double *lo, double *hi);

#endif
