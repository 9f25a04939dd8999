/* corpus_layout.h — the version 2 to 4 file layout of the problem corpus (corpus.h), shared by its writer
 * (corpus_write.c) and reader (corpus.c): the /problems row, its HDF5 compound type, appends to and reads
 * from the 1-D extendible datasets, the schema version attribute. Internal to bench/corpus. */
#ifndef CB_CORPUS_LAYOUT_H
#define CB_CORPUS_LAYOUT_H

#include "corpus.h"

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

enum { FMT_NONE, FMT_DENSE, FMT_CSR };
extern const char *const corpus_fmt_text[3]; /* M_format: none, dense, csr */

/* The five datasets, in the order of the root attribute "committed" (int64[5]): how many rows of /problems
 * and elements of the others a writer flushed whole. Past them a dataset may hold what a failed or killed
 * batch left (rows without their data); readers and appending writers take the committed sizes. */
enum { SET_PROBLEMS, SET_VALUES, SET_INDICES, SET_TEXT, SET_HASHES, N_SETS };
extern const char *const corpus_set_name[N_SETS];
int corpus_put_committed(hid_t f, const hsize_t size[N_SETS]); /* created or overwritten: 0, or 1 */
int corpus_get_committed(hid_t f, hsize_t size[N_SETS]);       /* 0; 1 absent (older files); -1 unreadable */

/* Where problem i's data is (read from its row; versions 2, 3). */
struct corpus_slot {
  int64_t values_offset, indices_offset, nnz, text_offset;
  int format, world_len, options_len, carry_n, warm;
};

/* One row of /problems (the in-memory layout; the file's is the packed copy of the same fields). */
struct row {
  char name[128], kind[16], driver[64], formulation[64], solver[64], status[64], axes[512], git_sha[64];
  char m_format[8];
  double h, t;
  int64_t step, task_id;
  uint64_t seed;
  int32_t rows[6];
  int32_t n, n_eq, captured;
  int64_t values_offset, indices_offset, nnz;
  /* version 3: a rebuildable callback problem (captured 2): its world and options text in /text at
   * text_offset (world_len then options_len bytes), carry_n doubles of carried state, warm: z0 was the
   * previous step's answer */
  int64_t text_offset;
  int32_t world_len, options_len, carry_n, warm;
  int32_t fc_dim;     /* version 4: kind fc's unknowns per contact (mu[n / fc_dim] follow M in /values) */
  int32_t fc_relaxed; /* version 4: kind fc, 1: the cone complementarity relaxation (cp.h) */
};

/* Writes the printf-style message into err (when given); returns 1. */
int corpus_fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void corpus_quiet(void); /* HDF5's own error printing off: every failure becomes one message */
hid_t corpus_str_type(size_t size);
hid_t corpus_row_type(void); /* the compound type of struct row (memory layout, also the file's) */
/* The same with the fields of an older schema version (2 or 3) only: reads its table into struct row (the
 * later fields stay 0). */
hid_t corpus_row_type_of(int version);
/* The doubles a linear problem's slot holds besides M: q, lo, hi (3 n) and kind fc's mu (n / fc_dim). */
int64_t corpus_linear_extra(int64_t n, int fc_dim);
hid_t corpus_name_type(void); /* the name field alone */
/* A 1-D chunked dataset of extent 0, extendible without limit. */
hid_t corpus_make_dataset(hid_t f, const char *name, hid_t type, hsize_t chunk);
int corpus_extent(hid_t d, hsize_t *size); /* the extent of 1-D d: 0, or 1 */
/* Appends count elements of buf at the end (*size, updated) of d: 0, or 1. */
int corpus_append_slice(hid_t d, hid_t type, hsize_t *size, hsize_t count, const void *buf);
/* Reads count elements from offset of d (whose extent is size) into buf: 0, or 1 (also when out of range). */
int corpus_read_slice(hid_t d, hid_t type, hsize_t size, int64_t offset, int64_t count, void *buf);
int corpus_put_version(hid_t f);  /* the root attribute schema_version = CORPUS_SCHEMA_VERSION */
long corpus_get_version(hid_t f); /* -1 when absent */
const char *corpus_kind_text(enum cp_kind k);

#endif
