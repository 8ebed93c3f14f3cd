#!/bin/sh
# SASS instruction mix per kernel of a cuobjdump -sass dump, with the DPX instructions counted
# apart (with them VHMNMX, the three-input half min/max that only sm_90 has: a DPX-free kernel
# holds none of either). usage: sass_mix.sh sass_dump.txt   (dpviz kernel names are shortened: kind/flags/ops/level;
# the batch kernels (batch_fill) read "batch <kind> <ops>", the one-pair score kernel
# (pair_score_fill) "pair-score local[-affine] <ops>", "pair-score corner[-affine] <ops>" or "pair-score dtw[-squared] <ops>",
# with " store" after the store's fill (its lines), the Viterbi kernels (viterbi_fill) "viterbi <ops> <level>")
dump="$1"
[ -s "$dump" ] || { echo "n/a (no SASS dump)"; exit 0; }
awk '
function short(f,   k, m, o, l, s) {
  if (f ~ /viterbi_fill/) {
    s = "viterbi"; if (f ~ /DpxOps/) s = s " dpx"; else if (f ~ /PortableOps/) s = s " dpx-free"
    split("score path matrix", lv, " "); if (match(f, /OutputLevelE[0-9]/)) s = s " " lv[substr(f, RSTART + 12, 1) + 1]
    return s
  }
  if (f ~ /pair_score_fill/) {
    # pair_score_fill<Ops, form, out>: out 1 the lines of the result store, 2 and the overview
    o = ""; if (match(f, /OpsELi[0-9]E(Li[0-9]E)?/)) { m = substr(f, RSTART + 6, RLENGTH - 6); o = substr(m, 1, 1); if (length(m) > 3) l = substr(m, 5, 1); else l = "0" }
    s = "pair-score " (o == "5" ? "corner-affine" : o == "4" ? "dtw-squared" : o == "3" ? "dtw" : o == "2" ? "corner" : o == "1" ? "local-affine" : "local")
    if (f ~ /DpxOps/) s = s " dpx"; else if (f ~ /PortableOps/) s = s " dpx-free"
    if (l == "1") s = s " store"; else if (l == "2") s = s " picture"
    return s
  }
  if (f ~ /band_locate/) s = "locate"; else if (f ~ /unpack_dirs/) return "unpack_dirs"; else if (f ~ /band_fill/) s = "fill"; else if (f ~ /batch_fill/) s = "batch"; else return f
  split("align edit lcs dtw", kinds, " ")
  if (match(f, /KindE[0-9]ELb[01]ELb[01]ELb[01]/)) {
    m = substr(f, RSTART, RLENGTH); k = kinds[substr(m, 6, 1) + 1]
    s = s " " k (substr(m, 10, 1) == "1" ? "-local" : "") (substr(m, 14, 1) == "1" ? "-affine" : "") (substr(m, 18, 1) == "1" ? "-squared" : "")
    if (match(f, /KindE[0-9]ELb[01]ELb[01]ELb[01]ELb0/)) s = s "-noband"
  }
  if (s ~ /^batch/ && f ~ /EndCellE2/) s = s "-semiglobal"
  if (f ~ /Dpx16x2Ops/) s = s " dpx-16x2"; else if (f ~ /Portable16x2Ops/) s = s " dpx-free-16x2"
  else if (f ~ /DpxOps/) s = s " dpx"; else if (f ~ /PortableOps/ || s ~ /^locate/) s = s " dpx-free"
  split("score store picture path matrix locate", outs, " ")  # the order of Out in kernels/cuda/fill_params.hpp
  if (match(f, /OutE[0-9]/)) s = s " " outs[substr(f, RSTART + 4, 1) + 1]
  return s
}
/Function :/ { fn = short($3); fns[fn] = 1; next }
/^[ \t]+\/\*[0-9a-f]+\*\// {
  line = $0; sub(/^[ \t]+\/\*[0-9a-f]+\*\/[ \t]+/, "", line); sub(/^@!?U?P[0-9T]+[ \t]+/, "", line)
  split(line, tok, /[ \t;]+/); op = tok[1]
  if (op == "" || op == "NOP") next
  full = op; split(op, parts, "."); base = parts[1]
  total[fn]++
  if (base == "VIADDMNMX" || base == "VIMNMX3" || base == "VIBMNMX" || (base == "VIMNMX" && full ~ /16x2/) || base == "VHMNMX") dpx[fn]++
  key = base; if (base == "VIMNMX" && full ~ /16x2/) key = "VIMNMX.16x2"
  cnt[fn SUBSEP key]++; keys[key] = 1
}
END {
  n = split("VIADDMNMX VIMNMX3 VIMNMX VIMNMX.16x2 VIBMNMX FMNMX HMNMX2 VHMNMX HSETP2 IMNMX IADD3 VIADD IMAD ISETP SEL LOP3 SHF PRMT P2R SHFL LDS LDG STG BRA", cols, " ")
  printf "%-34s %6s %5s", "kernel", "total", "DPX"
  for (i = 1; i <= n; i++) printf " %s", cols[i]
  printf "\n"
  for (fn in fns) {
    printf "%-34s %6d %5d", fn, total[fn], dpx[fn]
    for (i = 1; i <= n; i++) printf " %d", cnt[fn SUBSEP cols[i]]
    printf "\n"
  }
}' "$dump" | { IFS= read -r header; printf '%s\n' "$header"; sort; }  # the header row stays first
