/* corpus.h — a problem corpus: the complementarity problems real runs produced, in an HDF5 file (libhdf5
 * C API), one group per problem, so that every solver can replay the same subproblems (the FCLIB idea,
 * Acary et al. 2014, for our LCP / MLCP / box MCP kinds). Schema (README "Problem corpus"), version
 * CORPUS_SCHEMA_VERSION in the root attribute schema_version:
 *   /<name>                 group per problem; name = EXPERIMENT_task<ID>_step<K> (unique within a run)
 *     attributes  kind (text: lcp, mlcp, box_mcp, ncp), n, n_eq, M_format (dense | csr | none),
 *                 driver, axes ("h=0.01;formulation=peg;..."), formulation, solver, status (the run's),
 *                 git_sha, h, t, step, task_id, seed, rows_normal, rows_friction, rows_slack, rows_joint,
 *                 rows_velocity, rows_other, captured (1; 0: a callback problem, data not captured)
 *     datasets    q[n], lo[n], hi[n] (+-inf as IEEE infinities); M[n][n] row-major (dense) or
 *                 M_indptr[n+1], M_indices[nnz], M_data[nnz] (CSR, when under a quarter is nonzero)
 * Writers flush the file after every problem (corpus_writer_add), so a killed run leaves a readable file
 * (at most the problem being written is lost). */
#ifndef CB_CORPUS_H
#define CB_CORPUS_H

#include "cp.h"

#include <stddef.h>

#define CORPUS_SCHEMA_VERSION 1

struct corpus_meta {
  char name[128];
  char kind[16];
  char driver[64], formulation[64], solver[64], status[64];
  char axes[512];
  char git_sha[64];
  double h, t;
  long step, task_id;
  unsigned long seed;
  int rows[6]; /* normal, friction, slack, joint, velocity, other */
  int n, n_eq;
  int captured; /* 0: a callback problem (no M, q): recorded, not replayable */
};

/* Appends p as group m->name to path (created with the schema version when absent). cap > 0: nothing is
 * written once the file holds cap problems. Returns 0 written, 1 error (err says why), 3 cap reached. */
int corpus_append(const char *path, const struct cp_problem *p, const struct corpus_meta *m, long cap,
                  char *err, size_t len);

/* A writer kept open over a run: the file is flushed after every problem (H5Fflush), so a killed run
 * leaves the problems written so far readable. Same return values as corpus_append. */
struct corpus_writer;
int corpus_writer_open(const char *path, struct corpus_writer **w, char *err, size_t len);
int corpus_writer_add(struct corpus_writer *w, const struct cp_problem *p, const struct corpus_meta *m,
                      long cap, char *err, size_t len);
int corpus_writer_close(struct corpus_writer **w); /* 0, or 1 when the close failed */

struct corpus;
/* Opens a corpus for reading: 0; 2 with err when the file is missing, not HDF5, truncated or of another
 * schema version. */
int corpus_open(const char *path, struct corpus **c, char *err, size_t len);
int corpus_count(const struct corpus *c);
/* Metadata of problem i (read on open). */
const struct corpus_meta *corpus_meta_at(const struct corpus *c, int i);
/* Index of the problem named name, -1 when absent. */
int corpus_find(const struct corpus *c, const char *name);
/* Reads problem i: 0 with *p (cp_destroy it); 1 with err (unreadable, or a callback problem). */
int corpus_read(const struct corpus *c, int i, struct cp_problem **p, char *err, size_t len);
void corpus_close(struct corpus **c);

/* Copies every problem of the inputs into out (created, or appended to); a name already present gets the
 * input's index as a suffix. 0, or 2 with err on a bad input. */
int corpus_merge(const char *out, const char *const *in, int n_in, char *err, size_t len);

/* Writes a linear LCP (lo = 0, hi = inf) or MLCP as a Siconos numerics .dat file (the format cp_io.c
 * reads). 0; 1 with err for another kind or an I/O error. */
int corpus_write_siconos(const char *path, const struct cp_problem *p, char *err, size_t len);

#endif
