"""The one rule that names dpviz's CUDA kernels in the SASS reports: sass_mix.py (the whole
kernels), sass_hot_loop.py (the steady-state loops) and sass_res_usage.py (registers) all name a
kernel by kernel_name(), and the app looks the reports up by these names (app/sass_report.cpp:
fill_kernel_name, ran_kernel_name).

  band_fill       "<kind> <ops> <out>"            align-local-affine dpx matrix, dtw-noband dpx-free score
  band_locate     "locate <kind> <ops>"           the local end cell's search
  unpack_dirs     "unpack_dirs"
  batch_fill      "batch <kind> <ops> <end>"      batch edit dpx-16x2 corner
  pair_score_fill "pair-score[-<form>] <ops> <out>"  pair-score-corner dpx picture
  pair_serial_fill "pair-serial[-corner]-r<R> <ops> score"  pair-serial-r16 dpx score
  pair_serial16_fill "pair-serial-16x2[-affine]-r<R> dpx score"   (DPX only)
  viterbi_fill    "viterbi <ops> <level>"         viterbi dpx-free path

<kind>: align|edit|lcs|dtw, then -local, -affine, -squared, -noband (DTW without a band test) and
-glocal (alignment with row 0 free, Alg's kFreeTop: glocal's kernels);
<ops>: dpx, dpx-free, dpx-16x2, dpx-free-16x2 (the cell_ops.hpp policy); <out>: the kernels'
Out (kernels/cuda/fill_params.hpp); <end>: the batch kernel's EndRule (dpviz/algorithm.hpp);
<form>: pair_score::Form (kernels/common/pair_score_plan.hpp). Other functions have no name (None).
"""
import re

# kernels/cuda/fill_params.hpp's Out, in its order.
LEVELS = ['score', 'store', 'picture', 'path', 'matrix', 'locate']
# dpviz/algorithm.hpp's EndRule, in its order: the batch kernel's end cell (score level only).
ENDS = ['corner', 'best-cell', 'last-row-or-column', 'last-row', 'last-column']
# pair_score::Form, in its order; pair_score_fill<Ops, form, out>: out 0 score, 1 the store's
# lines, 2 and the picture's overview (builds before the store's fills name no out).
PAIR_FORMS = ['', '-affine', '-corner', '-dtw', '-dtw-squared', '-corner-affine']
PAIR_OUTS = ['score', 'store', 'picture']
# dpviz::OutputLevel, in its order (the Viterbi kernel's level).
OUTPUT_LEVELS = ['score', 'path', 'matrix']
KINDS = ['align', 'edit', 'lcs', 'dtw']


def ops_of(name):
    """The cell_ops.hpp policy's report name."""
    if 'Dpx16x2Ops' in name:
        return 'dpx-16x2'
    if 'Portable16x2Ops' in name:
        return 'dpx-free-16x2'
    return 'dpx' if 'DpxOps' in name else 'dpx-free'


def kind_of(name):
    """Alg<Kind, local, affine, squared[, banded[, free_top]]>: "align-local-affine", "dtw-noband",
    "align-affine-glocal", ... or None."""
    m = re.search(r'KindE(\d)ELb([01])ELb([01])ELb([01])(?:ELb([01]))?(?:ELb([01]))?', name)
    if not m or int(m.group(1)) >= len(KINDS):
        return None
    return KINDS[int(m.group(1))] + ('-local' if m.group(2) == '1' else '') + ('-affine' if m.group(3) == '1' else '') + \
        ('-squared' if m.group(4) == '1' else '') + ('-noband' if m.group(5) == '0' else '') + \
        ('-glocal' if m.group(6) == '1' else '')


def kernel_name(name):
    """The report name of a mangled kernel name, or None for a function this rule does not name."""
    if 'viterbi_fill' in name:
        m = re.search(r'OutputLevelE(\d)', name)
        level = ' ' + OUTPUT_LEVELS[int(m.group(1))] if m and int(m.group(1)) < len(OUTPUT_LEVELS) else ''
        return 'viterbi ' + ops_of(name) + level
    if 'pair_serial16_fill' in name:  # pair_serial16_fill<R, affine>: local, score level, DPX only
        m = re.search(r'pair_serial16_fill\w*?ILi(\d+)ELb([01])E', name)
        if not m:
            return None
        return 'pair-serial-16x2' + ('-affine' if m.group(2) == '1' else '') + '-r' + m.group(1) + ' dpx score'
    if 'pair_serial_fill' in name:  # pair_serial_fill<Ops, form, R>: score level only
        m = re.search(r'pair_serial_fill\w*?Ops\w*?ELi(\d)ELi(\d+)E', name)
        if not m or int(m.group(1)) >= len(PAIR_FORMS):
            return None
        return 'pair-serial' + PAIR_FORMS[int(m.group(1))] + '-r' + m.group(2) + ' ' + ops_of(name) + ' score'
    if 'pair_score_fill' in name:
        m = re.search(r'pair_score_fill\w*?Ops\w*?ELi(\d)E(?:Li(\d)E)?', name)
        if not m or int(m.group(1)) >= len(PAIR_FORMS) or int(m.group(2) or 0) >= len(PAIR_OUTS):
            return None
        return 'pair-score' + PAIR_FORMS[int(m.group(1))] + ' ' + ops_of(name) + ' ' + PAIR_OUTS[int(m.group(2) or 0)]
    if 'unpack_dirs' in name:
        return 'unpack_dirs'
    kind = kind_of(name)
    if kind is None:
        return None
    out = re.search(r'OutE(\d)', name)
    level = ' ' + LEVELS[int(out.group(1))] if out and int(out.group(1)) < len(LEVELS) else ''
    if 'band_locate' in name:
        return 'locate ' + kind + ' ' + ops_of(name) + level
    if 'batch_fill' in name:
        end = re.search(r'EndRuleE(\d)', name)
        return 'batch ' + kind + ' ' + ops_of(name) + (' ' + ENDS[int(end.group(1))] if end and int(end.group(1)) < len(ENDS) else '')
    if 'band_fill' in name:
        return kind + ' ' + ops_of(name) + level
    return None
