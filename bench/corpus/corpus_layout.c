/* corpus_layout.c — the version 2 to 4 file layout of the problem corpus (corpus_layout.h): the /problems row
 * type, 1-D extendible datasets (chunked, no filter: deflate's per-chunk set-up cost ~2 ms a batch), the
 * schema version attribute. */
#include "corpus_layout.h"

#include "run_files.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int corpus_fail(char *err, size_t len, const char *fmt, ...)
{
  if (err && len) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
  }
  return 1;
}

void corpus_quiet(void) { H5Eset_auto2(H5E_DEFAULT, NULL, NULL); }

const char *const corpus_fmt_text[3] = {"none", "dense", "csr"};
const char *const corpus_set_name[N_SETS] = {"problems", "values", "indices", "text", "name_hash"};

int corpus_name_bad(const char *name, char *why, size_t n)
{
  if (!name[0] || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
    snprintf(why, n, "'%s' is empty or a dot name", name);
    return 1;
  }
  if (run_text_check(name, RUN_TEXT_NAME, why, n)) return 1;
  for (const char *p = name; *p; p++) /* what is left is printable: run_text_check refused the rest */
    if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-' && *p != '.') {
      snprintf(why, n, "a '%c' at character %zu of '%.120s' (letters, digits, '_', '-', '.' only)", *p,
               (size_t)(p - name) + 1, name);
      return 1;
    }
  return 0;
}

hid_t corpus_str_type(size_t size)
{
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, size);
  return t;
}

/* The compound type of struct row (memory layout) with the fields of schema version v (2, 3 or 4). */
static hid_t row_type(int v)
{
  hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct row));
  static const struct {
    const char *name;
    size_t off, size;
  } str[] = {
      {"name", offsetof(struct row, name), sizeof(((struct row *)0)->name)},
      {"kind", offsetof(struct row, kind), sizeof(((struct row *)0)->kind)},
      {"driver", offsetof(struct row, driver), sizeof(((struct row *)0)->driver)},
      {"formulation", offsetof(struct row, formulation), sizeof(((struct row *)0)->formulation)},
      {"solver", offsetof(struct row, solver), sizeof(((struct row *)0)->solver)},
      {"status", offsetof(struct row, status), sizeof(((struct row *)0)->status)},
      {"axes", offsetof(struct row, axes), sizeof(((struct row *)0)->axes)},
      {"git_sha", offsetof(struct row, git_sha), sizeof(((struct row *)0)->git_sha)},
      {"M_format", offsetof(struct row, m_format), sizeof(((struct row *)0)->m_format)},
  };
  for (size_t k = 0; k < sizeof str / sizeof str[0]; k++) {
    hid_t s = corpus_str_type(str[k].size);
    H5Tinsert(t, str[k].name, str[k].off, s);
    H5Tclose(s);
  }
  H5Tinsert(t, "h", HOFFSET(struct row, h), H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "t", HOFFSET(struct row, t), H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "step", HOFFSET(struct row, step), H5T_NATIVE_INT64);
  H5Tinsert(t, "task_id", HOFFSET(struct row, task_id), H5T_NATIVE_INT64);
  H5Tinsert(t, "seed", HOFFSET(struct row, seed), H5T_NATIVE_UINT64);
  hsize_t six = 6;
  hid_t a = H5Tarray_create2(H5T_NATIVE_INT32, 1, &six);
  H5Tinsert(t, "rows", HOFFSET(struct row, rows), a);
  H5Tclose(a);
  H5Tinsert(t, "n", HOFFSET(struct row, n), H5T_NATIVE_INT32);
  H5Tinsert(t, "n_eq", HOFFSET(struct row, n_eq), H5T_NATIVE_INT32);
  H5Tinsert(t, "captured", HOFFSET(struct row, captured), H5T_NATIVE_INT32);
  H5Tinsert(t, "values_offset", HOFFSET(struct row, values_offset), H5T_NATIVE_INT64);
  H5Tinsert(t, "indices_offset", HOFFSET(struct row, indices_offset), H5T_NATIVE_INT64);
  H5Tinsert(t, "nnz", HOFFSET(struct row, nnz), H5T_NATIVE_INT64);
  if (v >= 3) {
    H5Tinsert(t, "text_offset", HOFFSET(struct row, text_offset), H5T_NATIVE_INT64);
    H5Tinsert(t, "world_len", HOFFSET(struct row, world_len), H5T_NATIVE_INT32);
    H5Tinsert(t, "options_len", HOFFSET(struct row, options_len), H5T_NATIVE_INT32);
    H5Tinsert(t, "carry_n", HOFFSET(struct row, carry_n), H5T_NATIVE_INT32);
    H5Tinsert(t, "warm", HOFFSET(struct row, warm), H5T_NATIVE_INT32);
  }
  if (v >= 4) {
    H5Tinsert(t, "fc_dim", HOFFSET(struct row, fc_dim), H5T_NATIVE_INT32);
    H5Tinsert(t, "fc_relaxed", HOFFSET(struct row, fc_relaxed), H5T_NATIVE_INT32);
  }
  return t;
}

hid_t corpus_row_type(void) { return row_type(CORPUS_SCHEMA_VERSION); }
hid_t corpus_row_type_of(int version) { return row_type(version < 2 ? 2 : version); }

int64_t corpus_linear_extra(int64_t n, int fc_dim) { return 3 * n + (fc_dim > 0 ? n / fc_dim : 0); }

/* The type of the names column alone (HDF5 reads one field of a compound by name). */
hid_t corpus_name_type(void)
{
  hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(((struct row *)0)->name)),
        s = corpus_str_type(sizeof(((struct row *)0)->name));
  H5Tinsert(t, "name", 0, s);
  H5Tclose(s);
  return t;
}

/* ---- 1-D extendible datasets ---- */

hid_t corpus_make_dataset(hid_t f, const char *name, hid_t type, hsize_t chunk)
{
  hsize_t zero = 0, unlimited = H5S_UNLIMITED;
  hid_t sp = H5Screate_simple(1, &zero, &unlimited), pl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(pl, 1, &chunk);
  hid_t d = H5Dcreate2(f, name, type, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
  H5Pclose(pl);
  H5Sclose(sp);
  return d;
}

int corpus_extent(hid_t d, hsize_t *size)
{
  hid_t sp = H5Dget_space(d);
  int rc = sp < 0 || H5Sget_simple_extent_ndims(sp) != 1 || H5Sget_simple_extent_dims(sp, size, NULL) < 0;
  if (sp >= 0) H5Sclose(sp);
  return rc;
}

/* Appends count elements of buf at the end (*size, updated) of d. */
int corpus_append_slice(hid_t d, hid_t type, hsize_t *size, hsize_t count, const void *buf)
{
  if (count == 0) return 0;
  hsize_t grown = *size + count;
  if (H5Dset_extent(d, &grown) < 0) return 1;
  hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, &count, NULL);
  int rc = fs < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, size, NULL, &count, NULL) < 0 ||
           H5Dwrite(d, type, ms, fs, H5P_DEFAULT, buf) < 0;
  H5Sclose(ms);
  if (fs >= 0) H5Sclose(fs);
  if (!rc) *size = grown;
  return rc;
}

/* Reads count elements from offset of d (whose extent is size) into buf. */
int corpus_read_slice(hid_t d, hid_t type, hsize_t size, int64_t offset, int64_t count, void *buf)
{
  if (count == 0) return 0;
  if (offset < 0 || count < 0 || (hsize_t)offset > size || (hsize_t)count > size - (hsize_t)offset) return 1;
  hsize_t off = (hsize_t)offset, cnt = (hsize_t)count;
  hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, &cnt, NULL);
  int rc = fs < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, &off, NULL, &cnt, NULL) < 0 ||
           H5Dread(d, type, ms, fs, H5P_DEFAULT, buf) < 0;
  H5Sclose(ms);
  if (fs >= 0) H5Sclose(fs);
  return rc;
}

int corpus_put_version(hid_t f)
{
  long v = CORPUS_SCHEMA_VERSION;
  hid_t sp = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(f, "schema_version", H5T_NATIVE_LONG, sp, H5P_DEFAULT, H5P_DEFAULT);
  int rc = a < 0 || H5Awrite(a, H5T_NATIVE_LONG, &v) < 0;
  if (a >= 0) H5Aclose(a);
  H5Sclose(sp);
  return rc;
}

int corpus_put_committed(hid_t f, const hsize_t size[N_SETS])
{
  int64_t v[N_SETS];
  for (int k = 0; k < N_SETS; k++)
    v[k] = (int64_t)size[k];
  hsize_t n = N_SETS;
  hid_t a = -1;
  if (H5Aexists(f, "committed") > 0) {
    a = H5Aopen(f, "committed", H5P_DEFAULT);
  } else {
    hid_t sp = H5Screate_simple(1, &n, NULL);
    a = H5Acreate2(f, "committed", H5T_STD_I64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
    H5Sclose(sp);
  }
  int rc = a < 0 || H5Awrite(a, H5T_NATIVE_INT64, v) < 0;
  if (a >= 0) H5Aclose(a);
  return rc;
}

int corpus_get_committed(hid_t f, hsize_t size[N_SETS])
{
  if (H5Aexists(f, "committed") <= 0) return 1;
  int64_t v[N_SETS];
  hid_t a = H5Aopen(f, "committed", H5P_DEFAULT), sp = a >= 0 ? H5Aget_space(a) : -1;
  int rc =
      a < 0 || sp < 0 || H5Sget_simple_extent_npoints(sp) != N_SETS || H5Aread(a, H5T_NATIVE_INT64, v) < 0;
  if (sp >= 0) H5Sclose(sp);
  if (a >= 0) H5Aclose(a);
  for (int k = 0; k < N_SETS && !rc; k++)
    if (v[k] < 0)
      rc = 1;
    else
      size[k] = (hsize_t)v[k];
  return rc ? -1 : 0;
}

long corpus_get_version(hid_t f)
{
  long v = -1;
  if (H5Aexists(f, "schema_version") <= 0) return -1;
  hid_t a = H5Aopen(f, "schema_version", H5P_DEFAULT);
  if (a < 0 || H5Aread(a, H5T_NATIVE_LONG, &v) < 0) v = -1;
  if (a >= 0) H5Aclose(a);
  return v;
}

const char *corpus_kind_text(enum cp_kind k)
{
  switch (k) {
  case CP_LCP: return "lcp";
  case CP_MLCP: return "mlcp";
  case CP_BOX_MCP: return "box_mcp";
  case CP_NCP: return "ncp";
  case CP_FC: return "fc";
  case CP_BOXED: return "boxed";
  }
  return "unknown";
}
