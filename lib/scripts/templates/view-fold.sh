# --- Copies a Spack view as folded links (templates/view-fold.sh) ---
# A view is one link per file into the install tree: most of the files a copy creates. A view
# directory that mirrors one directory of the tree (the same names, each a link to the same name
# there) becomes one link to it, as stow folds trees; the rest is copied as it is. Every path
# resolves to the same file. On a node's disk each file created costs far more than its bytes.
# Needs GNU find and tar: returns 1 without them, or on any name with a tab or a newline.
view_fold_awk='BEGIN { FS = "\t" }
function dir(s) { if (s !~ /\//) return ""; sub(/\/[^\/]*$/, "", s); return s }
function base(s) { sub(/^.*\//, "", s); return s }
$0 == "\f" { v = 1; next }
!v { st[$2] = $1; sc[dir($2)]++; next }
{ k++; ty[k] = $1; re[k] = $2; ta[k] = $3; s = $2; de[k] = gsub(/\//, "", s); if (de[k] > m) m = de[k]; vc[dir($2)]++ }
END {
  for (d = m; d >= 0; d--) for (i = 1; i <= k; i++) if (de[i] == d) {
    p = re[i]; t = ""
    if (ty[i] == "l") { if (ta[i] ~ /^\// && (ta[i] in st)) t = ta[i] }
    else if (ty[i] == "d" && (p in co) && !(p in bad) && st[co[p]] == "d" && sc[co[p]] == vc[p]) t = co[p]
    if (t != "") fo[p] = t
    q = dir(p)
    if (q == "") continue
    if (t == "" || base(t) != base(p)) bad[q] = 1
    else if (!(q in co)) co[q] = dir(t)
    else if (co[q] != dir(t)) bad[q] = 1
  }
  for (d = 0; d <= m; d++) for (i = 1; i <= k; i++) if (de[i] == d) {
    p = re[i]; q = dir(p)
    if (q in in_link) { in_link[p] = 1; continue }
    if (ty[i] != "d" || !(p in fo)) { print "E\t" p; continue }
    in_link[p] = 1
    if (base(fo[p]) == base(p)) ln[q == "" ? "." : q] = ln[q == "" ? "." : q] "\t" fo[p]
    else print "S\t" p "\t" fo[p]
  }
  for (q in ln) print "L\t" q ln[q]
}'
fold_view() {
  local view=$1 tree=$2 dest=$3 plan line odd
  local -a entries=() f
  odd=$(find "$view" "$tree" -name $'*[\t\n]*' -print -quit) && [ -z "$odd" ] || return 1
  plan=$({ find "$tree" -mindepth 1 -printf '%y\t%p\n' && printf '\f\n' \
    && find "$view" -mindepth 1 -printf '%y\t%P\t%l\n'; } | awk "$view_fold_awk") || return 1
  while IFS= read -r line; do
    [ "${line%%$'\t'*}" = E ] && entries+=("${line#E$'\t'}")
  done <<< "$plan"
  # (a restarted container finds its earlier copy: start again from nothing)
  find "$dest" -mindepth 1 -delete || return 1
  if [ "${#entries[@]}" -gt 0 ]; then
    tar -C "$view" --no-recursion --verbatim-files-from -cf - -T <(printf '%s\n' "${entries[@]}") \
      | tar -C "$dest" --no-same-owner -xf - || return 1
  fi
  while IFS=$'\t' read -r -a f; do
    case ${f[0]} in
      L) ln -s -- "${f[@]:2}" "$dest/${f[1]}/" || return 1 ;;
      S) ln -s -- "${f[2]}" "$dest/${f[1]}" || return 1 ;;
    esac
  done <<< "$plan"
}
