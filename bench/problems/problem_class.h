/* problem_class.h — named problem classes for the solver benchmark (bench/solvers.c) and its tests: a short
 * name such as "spd1000", "sliding120", "murty16", "egan_max_b" or "siconos:lcp/lcp_mmc.dat" builds one
 * problem instance (testproblems.h builders, cp_io.h for files). Random classes take an instance seed;
 * deterministic ones ignore it. The same (name, seed) always builds the same problem, bit for bit, so every
 * solver of a benchmark sees the same instance. */
#ifndef CB_PROBLEM_CLASS_H
#define CB_PROBLEM_CLASS_H

#include "cp.h"

#include <stddef.h>

/* Class names (N a positive integer):
 *   spdN          random SPD LCP of size N (cp_test_spd)
 *   restingN      Stewart-Trinkle contact LCP of N / 24 boxes at rest on a plane, 4 friction directions,
 *   slidingN      mu = 0.5, h = 1e-3 (cp_test_box_contact_gap; N a multiple of 24), or sliding at 1-3 m/s;
 *                 corner gaps below 1e-6, so all 4 corners of every box are in contact (degenerate)
 *   murtyN        Murty's matrix (Lemke: 2^N - 1 pivots)
 *   egan_max_a, egan_max_b   Egan et al. Fig. 3, max formulation, gamma = 100, cases (a) and (b)
 *   egan_sum_1, egan_sum_2   summation formulation, eps/h = 0.01; the paper's b_1 is case (b), b_2 case (a)
 *   ncp_disc_roll, ncp_disc_slide, ncp_disc_rand   the step of a disc on a plane as a mixed NCP (Chakraborty
 *                 et al. eqs. 41-47, 8 free + 3 complementary unknowns, h = 0.01): the paper's rolling state,
 *                 sliding at 2 m/s, a random state on the plane (seeded)
 *   ncp_mixedN    random strictly monotone mixed NCP, N / 3 free unknowns, known solution (seeded)
 *   ncp_kojima_shindo   Kojima-Shindo's 4-unknown NCP;  mcp_siconos10   Siconos' MCP test (5 free + 5)
 *   sparse_mlcpN  synthetic sparse contact-structured mixed LCP of size N >= 5 (cp_test_sparse_mlcp, seeded)
 *   boxed_incline, boxed_incline_3d, boxed_hex_pyramid, boxed_box_stack, boxed_cannonball, boxed_polygon_box
 *                 the boxed LCP with friction index of formulation boxed_lcp at a fixed step of one of our
 *                 scenes (boxed_class.h; not in the default list)
 *   siconos:PATH  a Siconos numerics .dat file, PATH relative to the data folder (LCP, or MLCP when the
 *                 file name contains "mlcp", or frictional contact under fc3d/: cp_file_format_guess)
 *   file:PATH     a problem file in any format cp_io reads, PATH as given (relative to the working
 *                 directory): e.g. a failed step -cp_dump_failed wrote (results/failed/) */
enum cp_class_status {
  CP_CLASS_OK = 0,
  CP_CLASS_UNKNOWN = 1, /* not a class name (bad input) */
  CP_CLASS_MISSING = 2, /* a siconos: file that is not there (data folder absent) */
  CP_CLASS_FAILED = 3,  /* the file does not parse, or allocation failed (message in err) */
};

/* 1 if name is a valid class name (files are not opened). */
int cp_class_valid(const char *name);
/* A -problem item checked before any task: 0 when a task can build it, or will report it not_applicable
 * (a siconos: file when the data folder itself is absent); 1 with the reason in err for an unknown class, a
 * file: path that is not a readable file, and a siconos: file missing from a data folder that exists (a
 * misspelt name). Files are not parsed. */
int cp_class_check(const char *name, const char *data_dir, char *err, size_t errlen);
/* 1 for the random classes (spd, resting, sliding, ncp_mixed, ncp_disc_rand, sparse_mlcp): the instance
 * depends on the seed. */
int cp_class_random(const char *name);
/* Builds the instance; *p is NULL unless CP_CLASS_OK. data_dir holds the siconos: files. */
enum cp_class_status cp_class_create(const char *name, unsigned long seed, const char *data_dir,
                                     struct cp_problem **p, char *err, size_t errlen);
/* Problem size without building random instances (files are read); -1 when unknown or missing. */
int cp_class_size(const char *name, const char *data_dir);

/* The default list, comma-separated, into a new string (free()): the built-in classes, then
 * "siconos:lcp/X.dat" and "siconos:mlcp/X.dat" for every such file under data_dir (sorted; none when the
 * folder is absent). NULL on allocation failure. */
char *cp_class_default_list(const char *data_dir);

#endif
