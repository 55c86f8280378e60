/* What a mutant plugin says about itself, beside the ordinary plugin entry point: the
 * `ninfer-conform mutants` command dlopens each mutant .so, reads this, and replays the corpus
 * suites it names against the plugin. C, like include/ninfer_conform/plugin.h. */
#ifndef NINFER_CONFORM_MUTANT_INFO_H
#define NINFER_CONFORM_MUTANT_INFO_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nc_mutant_info_v1 {
  const char* name;      /* e.g. "enc-direct-division" */
  const char* area;      /* encoder, grouped, e4m3fn, nvfp4, fp8-row, direct */
  const char* entry;     /* the one entry point it replaces: "encode", "decode", ... */
  const char* mistake;   /* the bug, one line */
  const char* suites;    /* space-separated `replay --suite` globs that should kill it */
  const char* kill_tags; /* space-separated corpus tags whose cases should kill it */
  const char* bug_words; /* space-separated words a correct diagnosis line should contain */
} nc_mutant_info_v1;

#define NC_MUTANT_INFO_SYMBOL "ninfer_conform_mutant_info_v1"
typedef const nc_mutant_info_v1* (*nc_mutant_info_entry_v1)(void);

#ifdef __cplusplus
}
#endif

#endif /* NINFER_CONFORM_MUTANT_INFO_H */
